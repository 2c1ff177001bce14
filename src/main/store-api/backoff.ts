export interface BackoffPolicy {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000 };

/**
 * Exponential backoff with full jitter ("Exponential Backoff and Jitter",
 * AWS Architecture Blog): a uniform delay in [0, min(cap, base * 2^attempt)).
 * `attempt` counts retries from 0.
 */
export function fullJitterDelay(
  attempt: number,
  random: () => number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
