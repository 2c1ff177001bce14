// A global budget for retries (the "retry budget" of Finagle and gRPC): over a
// sliding window, retries may be at most a share of first attempts, plus a
// small allowance. A storm of failures then turns into fast failures instead
// of a flood of retries that would get the key banned.

export interface RetryBudgetOptions {
  readonly windowMs: number;
  /** Retries allowed per first attempt in the window. */
  readonly ratio: number;
  /** Retries always allowed in a window, so a quiet client can still retry. */
  readonly minPerWindow: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetOptions = {
  windowMs: 60_000,
  ratio: 0.2,
  minPerWindow: 5,
};

export class RetryBudget {
  readonly #options: RetryBudgetOptions;
  readonly #now: () => number;
  #attempts: number[] = [];
  #retries: number[] = [];

  constructor(now: () => number, options: RetryBudgetOptions = DEFAULT_RETRY_BUDGET) {
    this.#now = now;
    this.#options = options;
  }

  recordAttempt(): void {
    this.#attempts.push(this.#now());
  }

  /** Takes one retry from the budget; false when the budget is spent. */
  tryRetry(): boolean {
    this.#prune();
    const allowed = this.#options.minPerWindow + this.#options.ratio * this.#attempts.length;
    if (this.#retries.length >= allowed) return false;
    this.#retries.push(this.#now());
    return true;
  }

  #prune(): void {
    const since = this.#now() - this.#options.windowMs;
    const keep = (t: number): boolean => t > since;
    this.#attempts = this.#attempts.filter(keep);
    this.#retries = this.#retries.filter(keep);
  }
}
