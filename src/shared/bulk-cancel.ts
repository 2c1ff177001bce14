// A bulk cancel as the renderer sees it: progress per outcome, status, ETA.

import type { Delivery } from './failures.ts';
import type { EnvironmentId } from './environments.ts';

/**
 * `gone`: a 404 after a try whose answer was lost (the order may have been
 * removed by that try, or have been gone before); never counted as cancelled.
 */
export type BulkOutcome = 'cancelled' | 'already-shipped' | 'not-found' | 'gone' | 'failed';

/**
 * Each outcome's one name, wherever a cancel's result is shown: the bulk
 * cancel's strip and its CSV, the cancel log and its CSV, an order's row.
 * "Gone" claims no more than is known: the service no longer has the order,
 * and this cancel may or may not be why (the message says why not known).
 */
export const OUTCOME_LABELS: Readonly<Record<BulkOutcome, string>> = {
  cancelled: 'Cancelled',
  'already-shipped': 'Already shipped',
  'not-found': 'Not found',
  gone: 'Gone',
  failed: 'Failed',
};

/** What a stopped job left without a result, each group shown in the list like an outcome. */
export type LeftOverKind = 'not-sent' | 'unanswered';
/** An outcome of a bulk cancel, or what a stopped one left: what its strip can show in the list. */
export type ShownOutcome = BulkOutcome | LeftOverKind;

/** The strip's name of each group it can show, the outcomes' one names among them. */
export const SHOWN_OUTCOME_LABELS: Readonly<Record<ShownOutcome, string>> = {
  ...OUTCOME_LABELS,
  'not-sent': 'Not sent',
  // Sent, and its answer lost: the order row's own word for that.
  unanswered: 'May be cancelled',
};

export type BulkStatus = 'running' | 'paused' | 'stopped' | 'finished';
/**
 * Why a job is paused: the clerk, no connection, the key refused, the key
 * banned, the journal cannot be saved (a full or read-only disk).
 */
export type PauseReason = 'user' | 'offline' | 'key' | 'banned' | 'disk';

export interface BulkResult {
  readonly orderId: string;
  readonly outcome: BulkOutcome;
  readonly message: string;
  readonly at: number;
  readonly delivery?: Delivery;
  /**
   * An earlier DELETE of this order was sent and its answer never came (a
   * crash, a cut connection): this result is of the DELETE that continued it.
   */
  readonly continued?: boolean;
  /** A 404 for an order the last saved list held, received then (see CancelOutcome.listedAt). */
  readonly listedAt?: number;
}

/** The orders a stopped job left: those never sent, and those sent whose answer never came. */
export interface BulkLeftOver {
  readonly notSent: readonly string[];
  readonly unanswered: readonly string[];
}

export interface BulkCancelSnapshot {
  readonly environment: EnvironmentId;
  readonly jobId: string;
  readonly status: BulkStatus;
  readonly pauseReason?: PauseReason;
  /** Plain words on why it is paused or waiting. */
  readonly message?: string;
  readonly total: number;
  readonly counts: Readonly<Record<BulkOutcome, number>> & { readonly waiting: number };
  /**
   * DELETEs sent whose answer has not come yet (counted in `waiting`). After a
   * pause or a stop they can still land and change the counts; once this is
   * 0, nothing more of the job changes until it is resumed.
   */
  readonly answersOnTheirWay: number;
  /**
   * Orders whose DELETE was sent and whose answer never came (a cut
   * connection, a crash), not on their way now (counted in `waiting`): each
   * may or may not have been cancelled. A running job tries them again; a
   * stopped one leaves them so, apart from those never sent.
   */
  readonly unanswered: number;
  /**
   * How many of a stopped job's unanswered cancels this run of the app has
   * added to the cancel log (as "may have been cancelled"); absent while none.
   * It changes only once the log has them, so the window reloads the log then.
   */
  readonly unansweredLogged?: number;
  readonly startedAt: number;
  readonly finishedAt?: number;
  /** Estimated ms to finish, from the quota; undefined until the quota is known. */
  readonly etaMs?: number;
  /** The clerk closed the finished or stopped job's panel (its results stay in the cancel log). */
  readonly dismissed?: boolean;
}
