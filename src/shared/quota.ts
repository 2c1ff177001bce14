// The quota of one environment's key as the client knows it, from the
// X-RateLimit-* headers of the last answers and the client's own hold-backs.

export type HoldReason =
  | 'server-429' // the service answered 429
  | 'gateway-429' // something between this computer and the service (a gateway, a proxy) answered 429
  | 'banned' // the service says the key is banned for a while
  | 'quota-exhausted'; // Remaining reached 0: the client waits for the reset

/**
 * A request met by a hold that ends within this long waits for it; a longer
 * hold fails it at once (the client's default, which the window's Refresh
 * follows: it is offered only when it would wait rather than fail).
 */
export const MAX_INLINE_WAIT_MS = 10_000;

export interface QuotaSnapshot {
  /** False until the first answer carrying rate-limit headers. */
  readonly known: boolean;
  readonly limit?: number;
  readonly remaining?: number;
  /** Epoch ms (local clock) when the window resets. */
  readonly resetAt?: number;
  /** Epoch ms of the answer these figures come from. */
  readonly observedAt?: number;
  /** Epoch ms until which no request is sent, and why. */
  readonly holdUntil?: number;
  readonly holdReason?: HoldReason;
}

/** One bucket of the quota chart. */
export interface QuotaHistoryPoint {
  /** Start of the bucket, epoch ms. */
  readonly at: number;
  /** Requests sent in it. */
  readonly sent: number;
  /** The last Remaining the service reported in it. */
  readonly remaining?: number;
}

/** What the quota meter shows: the service's figures plus the app's own counts. */
export interface QuotaView extends QuotaSnapshot {
  /** Requests this computer sent with this key since local midnight (a local count). */
  readonly sentToday: number;
  /** The last minutes, oldest first. */
  readonly history: readonly QuotaHistoryPoint[];
}

export const HISTORY_BUCKET_MS = 10_000;
export const HISTORY_SPAN_MS = 15 * 60_000;
