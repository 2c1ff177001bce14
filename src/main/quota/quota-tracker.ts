// The app's own view of one key's use, beside what the service reports: how
// many requests went out today (a local count against the plan's daily
// limit) and a short history for the meter's chart. It is saved with the
// gate's state, so a restart during a ban or hold does not forget it.

import {
  HISTORY_BUCKET_MS,
  HISTORY_SPAN_MS,
  type QuotaHistoryPoint,
  type QuotaSnapshot,
  type QuotaView,
} from '../../shared/quota.ts';

export interface SavedQuota {
  /** Identifies the key (a hash), so a saved hold never applies to another key. */
  readonly fingerprint: string;
  readonly snapshot: QuotaSnapshot;
  /** Local date (YYYY-MM-DD) the count belongs to. */
  readonly day: string;
  readonly sentToday: number;
  readonly history: readonly QuotaHistoryPoint[];
}

function localDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export class QuotaTracker {
  readonly #now: () => number;
  readonly #fingerprint: string;
  #day: string;
  #sentToday: number;
  #history: QuotaHistoryPoint[];

  constructor(now: () => number, fingerprint: string, saved?: SavedQuota) {
    this.#now = now;
    this.#fingerprint = fingerprint;
    const usable = saved?.fingerprint === fingerprint;
    this.#day = usable ? saved.day : localDay(now());
    this.#sentToday = usable ? saved.sentToday : 0;
    this.#history = usable ? [...saved.history] : [];
    this.#roll();
  }

  recordSend(): void {
    this.#roll();
    this.#sentToday += 1;
    this.#bucket().sent += 1;
  }

  recordSnapshot(snapshot: QuotaSnapshot): void {
    if (snapshot.remaining === undefined) return;
    this.#roll();
    this.#bucket().remaining = snapshot.remaining;
  }

  view(snapshot: QuotaSnapshot): QuotaView {
    this.#roll();
    return {
      ...snapshot,
      sentToday: this.#sentToday,
      history: this.#history.map((p) => ({ ...p })),
    };
  }

  saved(snapshot: QuotaSnapshot): SavedQuota {
    this.#roll();
    return {
      fingerprint: this.#fingerprint,
      snapshot,
      day: this.#day,
      sentToday: this.#sentToday,
      history: this.#history,
    };
  }

  #bucket(): { at: number; sent: number; remaining?: number } {
    const at = Math.floor(this.#now() / HISTORY_BUCKET_MS) * HISTORY_BUCKET_MS;
    let last = this.#history.at(-1) as { at: number; sent: number; remaining?: number } | undefined;
    if (!last || last.at !== at) {
      last = { at, sent: 0 };
      this.#history.push(last);
    }
    return last;
  }

  #roll(): void {
    const now = this.#now();
    const today = localDay(now);
    if (today !== this.#day) {
      this.#day = today;
      this.#sentToday = 0;
    }
    const since = now - HISTORY_SPAN_MS;
    if (this.#history.length > 0 && this.#history[0]!.at < since) {
      this.#history = this.#history.filter((p) => p.at >= since);
    }
  }
}
