// How far the service's clock is ahead of ours, from its Date headers, so
// times it states in its own clock (Retry-After dates, X-RateLimit-Reset) are
// read correctly. A Date header is cut to the second and stamped before the
// answer travels, so every reading is at most the true offset (never above
// it). The largest recent reading is therefore the closest and still safe:
// waits computed with it never end early.

import { parseHttpDate } from '../store-api/http-date.ts';

const WINDOW_MS = 10 * 60_000;
const MAX_SAMPLES = 32;

export class ServerClock {
  #samples: Array<{ at: number; skew: number }> = [];

  observe(dateHeader: string | null | undefined, now: number): void {
    if (!dateHeader) return;
    const serverNow = parseHttpDate(dateHeader, now);
    if (serverNow === undefined) return;
    this.#samples.push({ at: now, skew: serverNow - now });
    // Forget old readings, so a clock that is set back is followed.
    this.#samples = this.#samples.filter((s) => now - s.at <= WINDOW_MS).slice(-MAX_SAMPLES);
  }

  /** Milliseconds the server is ahead (negative: behind); 0 before any reading. */
  skew(): number {
    if (this.#samples.length === 0) return 0;
    return Math.max(...this.#samples.map((s) => s.skew));
  }
}
