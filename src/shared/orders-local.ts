// What Store Admin keeps about orders locally, beside the service's data.

import type { EnvironmentId } from './environments.ts';
import type { Delivery } from './failures.ts';

export const MAX_NOTE_LENGTH = 500;

export interface ReviewMark {
  readonly reviewed: boolean;
  readonly note: string;
  readonly updatedAt: number;
}

export type ReviewMarks = Readonly<Record<string, ReviewMark>>;

export type CancelResult = 'cancelled' | 'not-found' | 'gone' | 'already-shipped' | 'failed';

export interface CancelLogEntry {
  readonly at: number;
  readonly environment: EnvironmentId;
  readonly orderId: string;
  readonly result: CancelResult;
  readonly message: string;
  /** For failures: whether the service may have acted (see Failure.delivery). */
  readonly delivery?: Delivery;
  /**
   * A 404 for an order the last saved list held, received then: it existed,
   * so this cancel may have removed it (the network may have sent it twice).
   */
  readonly listedAt?: number;
}
