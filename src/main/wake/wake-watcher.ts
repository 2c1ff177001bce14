// After a sleep and a lost network. A timer's wait stops while the machine
// sleeps (one set for five minutes before an hour's sleep fires five minutes
// after waking, less what had passed), and a network that comes back says
// nothing to a request waiting out its backoff. So when the desktop says the
// machine woke or the screen was unlocked, or the network is seen again
// after it was gone, the app looks again at once: the services it works
// with are checked (a bulk cancel paused while its service could not be
// reached carries on as soon as that answers, as usual), the domain checks
// are rescheduled from the wall clock, and the window refreshes if a refresh
// is due. This decides when that is; what the app does is given to it.

import type { Timing } from '../store-api/clock.ts';

/** Why the app looks again: the machine woke, the screen was unlocked, the network came back. */
export type WakeReason = 'resume' | 'unlock-screen' | 'online';

export interface WakeWatcherDeps {
  readonly timing: Timing;
  /** Whether the machine has a network now (Electron's net.isOnline()). */
  readonly isOnline: () => boolean;
  /** What the app does when it wakes (its failures are its own to say). */
  readonly onWake: (reason: WakeReason) => Promise<void> | void;
  /** How often the network is looked at: Electron tells of no change. Default 2 s. */
  readonly networkPollMs?: number;
  /** Wakes closer together than this are one (a resume, then the unlock that follows). Default 5 s. */
  readonly togetherMs?: number;
}

export const NETWORK_POLL_MS = 2000;
export const WAKES_TOGETHER_MS = 5000;

export class WakeWatcher {
  readonly #deps: WakeWatcherDeps;
  readonly #polling = new AbortController();
  #asleep = false;
  #online: boolean;
  #lastWakeAt = Number.NEGATIVE_INFINITY;
  #loop: Promise<void> | undefined;
  /** The reactions under way, so close can wait for them. */
  readonly #reacting = new Set<Promise<void>>();

  constructor(deps: WakeWatcherDeps) {
    this.#deps = deps;
    this.#online = deps.isOnline();
  }

  /** Starts looking at the network. */
  start(): void {
    this.#loop ??= this.#watchNetwork();
  }

  /** The machine goes to sleep: nothing is looked at until it wakes. */
  suspended(): void {
    this.#asleep = true;
  }

  /** The machine woke. */
  resumed(): void {
    this.#asleep = false;
    this.#wake('resume');
  }

  /** The screen was unlocked: the person is back (after a night, perhaps, on another network). */
  unlocked(): void {
    this.#wake('unlock-screen');
  }

  /** Whether the network was there at the last look. */
  get online(): boolean {
    return this.#online;
  }

  async close(): Promise<void> {
    this.#polling.abort();
    await this.#loop;
    while (this.#reacting.size > 0) await Promise.all([...this.#reacting]);
  }

  async #watchNetwork(): Promise<void> {
    const { timing } = this.#deps;
    const every = this.#deps.networkPollMs ?? NETWORK_POLL_MS;
    try {
      for (;;) {
        await timing.sleep(every, this.#polling.signal);
        if (this.#asleep) continue;
        const online = this.#deps.isOnline();
        const back = online && !this.#online;
        this.#online = online;
        if (back) this.#wake('online');
      }
    } catch {
      // Closed.
    }
  }

  #wake(reason: WakeReason): void {
    if (this.#polling.signal.aborted) return;
    const now = this.#deps.timing.now();
    if (now - this.#lastWakeAt < (this.#deps.togetherMs ?? WAKES_TOGETHER_MS)) return;
    this.#lastWakeAt = now;
    // A wake also says whether the network is there, so the poll after it does not wake again.
    this.#online = this.#deps.isOnline();
    const reaction = (async () => {
      try {
        await this.#deps.onWake(reason);
      } catch {
        // What the app does reports its own failures (a check that fails says so as any does).
      }
    })();
    this.#reacting.add(reaction);
    void reaction.finally(() => this.#reacting.delete(reaction));
  }
}
