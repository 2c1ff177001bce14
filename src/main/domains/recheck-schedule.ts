// When a domain waiting on DNS (or on its certificate) is checked again: at
// once, then every 30 seconds at first, the wait growing with the time
// waited (a quarter of it) up to every 10 minutes, and no more once 48 hours
// have passed, the interface's bound on DNS propagation. Pure: the times
// come in, so a virtual clock drives it in tests.

export const FIRST_RECHECK_MS = 30_000;
export const LONGEST_RECHECK_MS = 10 * 60_000;
export const GIVE_UP_AFTER_MS = 48 * 60 * 60_000;

/** The wait after a check made `waited` ms after the waiting began. */
export function recheckInterval(waited: number): number {
  return Math.min(LONGEST_RECHECK_MS, Math.max(FIRST_RECHECK_MS, Math.round(waited / 4)));
}

export interface RecheckState {
  /** Epoch ms when the waiting began. */
  readonly since: number;
  /** Epoch ms of the last check, if there was one since. */
  readonly checkedAt?: number;
  /** A moment that must be checked at if not already (the certificate's 30-minute mark). */
  readonly deadline?: number;
}

/** When to check next (epoch ms) after a state, or undefined to stop checking. */
export type RecheckSchedule = (state: RecheckState) => number | undefined;

/** When to check next (epoch ms), or undefined once the 48 hours are over. */
export function nextCheckAt(state: RecheckState): number | undefined {
  const { since, checkedAt, deadline } = state;
  if (checkedAt === undefined || checkedAt < since) return since;
  let at = checkedAt + recheckInterval(checkedAt - since);
  if (deadline !== undefined && checkedAt < deadline && deadline < at) at = deadline;
  return at - since > GIVE_UP_AFTER_MS ? undefined : at;
}

/**
 * What a saved schedule belongs to: the domain's step and save time, when
 * it was verified, and the settings its checks use. A schedule whose basis
 * no longer matches the saved progress starts afresh.
 */
export function scheduleBasis(
  progress: { readonly step: string; readonly updatedAt: number; readonly verifiedAt?: number },
  settings: object,
): string {
  return JSON.stringify([progress.step, progress.updatedAt, progress.verifiedAt, settings]);
}
