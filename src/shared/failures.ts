// Every way a call can fail, as data a person can read. Thrown inside the main
// process as StoreApiError (src/main/store-client/errors.ts), sent to the
// renderer as a Failure. Never holds the API key.

import type { Unsure } from './unsure-words.ts';

export type FailureKind =
  | 'no-key' // no key is set for the environment
  | 'unauthorized' // 401: key missing or invalid
  | 'not-found' // 404
  | 'conflict' // 409
  | 'rate-limited' // 429, or the client holding back until the quota resets
  | 'banned' // the key is temporarily banned for requests after a 429
  | 'bad-request' // 400 and other 4xx the interface does not name
  | 'server' // 5xx after the retries allowed
  | 'network' // no answer: refused, reset, DNS, offline
  | 'timeout' // no answer in time
  | 'invalid-response' // an answer that is not what the interface says
  | 'redirect' // a redirect the client refuses to follow
  | 'invalid-input' // an argument that does not validate
  | 'aborted' // stopped by the user
  | 'internal'; // a fault inside Store Admin itself

/**
 * Whether the service may have acted on the request. For a cancel this tells
 * the clerk whether the order may have been cancelled: `not-sent` (it never
 * left) and `answered` (the service answered with this error and did nothing)
 * are safe; `unknown` means an answer was lost and the order must be checked.
 */
export type Delivery = 'not-sent' | 'answered' | 'unknown';

export interface Failure {
  readonly kind: FailureKind;
  /** Plain words for a store clerk. */
  readonly message: string;
  readonly status?: number;
  /** The service's machine-readable `code`, when it sent one. */
  readonly code?: string;
  /** For rate-limited and banned: epoch ms when requests may be sent again. */
  readonly retryAt?: number;
  readonly delivery: Delivery;
  /** With delivery `unknown`: what left it unknown (unsure-words.ts says it). */
  readonly unsure?: Unsure;
}
