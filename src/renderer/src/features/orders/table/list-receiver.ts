// Receives one order list while main reads it: asks for it with a fresh
// stream id, builds the table from the parts of columns that come on that
// stream (a table of the rows so far now and then, for the screen, and one of
// them all at the end mark), and gives the whole table once the call says the
// list is whole and valid and every row has come. A list that fails, however
// far it came, gives no table.

import type { OrderStreams } from '../../../../../shared/order-stream.ts';
import { OrderTableBuilder, type OrderTable } from './order-table.ts';
import { newStreamId } from '../order-streams.ts';

export interface ReceiveOptions {
  /** A table of the rows so far: with the first rows, then at most every `intervalMs`, and all of them at the end mark. */
  readonly onRows?: (table: OrderTable) => void;
  readonly intervalMs?: number;
  readonly now?: () => number;
  /**
   * How long the rows may still be on their way once the call has said the
   * list is whole; past it the list is taken as broken (a lost stream must not
   * leave the screen loading for ever). `wait` is the timer (tests give their own).
   */
  readonly endWaitMs?: number;
  readonly wait?: (ms: number) => Promise<void>;
}

/** Main sends the end mark before it answers, so this is a lost stream, not a slow one. */
export const END_WAIT_MS = 30_000;

/** Between two tables of the rows so far: the count grows visibly, and sorting what has come stays cheap. */
export const ROWS_SHOWN_EVERY_MS = 200;

export interface ReceivedList<R> {
  readonly result: R;
  /** The whole list, when `result` is a whole list and all its rows came. */
  readonly table?: OrderTable;
  /** The call said the list is whole, yet its rows did not all come (they cannot be trusted). */
  readonly broken?: boolean;
}

/**
 * `call` asks main for the list with the stream id; `wholeCount` tells from
 * its result whether it is a whole list, and of how many orders.
 */
export async function receiveList<R>(
  streams: OrderStreams,
  call: (streamId: string) => Promise<R>,
  wholeCount: (result: R) => number | undefined,
  options: ReceiveOptions = {},
): Promise<ReceivedList<R>> {
  const {
    onRows,
    intervalMs = ROWS_SHOWN_EVERY_MS,
    now = () => performance.now(),
    endWaitMs = END_WAIT_MS,
  } = options;
  let clearWait = () => undefined as void;
  const wait =
    options.wait ??
    ((ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        clearWait = () => clearTimeout(timer);
      }));
  const streamId = newStreamId();
  let builder: OrderTableBuilder | undefined;
  let shownAt = Number.NEGATIVE_INFINITY;
  let broken = false;
  let shownCount = 0;
  /** The whole table, built at the end mark when every row had come. */
  let whole: OrderTable | undefined;
  const show = (rows: OrderTableBuilder) => {
    if (!onRows) return;
    shownCount = rows.count;
    onRows(rows.snapshot());
  };
  let settle: (end: { count: number } | undefined) => void = () => undefined;
  const ended = new Promise<{ count: number } | undefined>((resolve) => (settle = resolve));
  const stop = streams.listen(streamId, (message) => {
    if (message.kind === 'rows') {
      if (broken) return;
      builder ??= new OrderTableBuilder(message.expected ?? message.columns.count);
      try {
        builder.append(message.from, message.columns);
      } catch {
        broken = true; // a part out of order: this list cannot be trusted
        return;
      }
      const at = now();
      if (at - shownAt >= intervalMs) {
        shownAt = at;
        show(builder);
      }
    } else {
      // Every row has come: the screen shows them all now, so its search and sort have caught up
      // by the time main has finished the list (its cache file) and says it is whole. Built
      // whole here, so that answer costs the screen nothing more than saying so.
      if (message.kind === 'end' && !broken && builder?.count === message.count) {
        whole = builder.build();
        if (onRows && whole.count > shownCount) onRows(whole);
      }
      settle(message.kind === 'end' ? { count: message.count } : undefined);
    }
  });
  try {
    const result = await call(streamId);
    const count = wholeCount(result);
    if (count === undefined) return { result };
    // Main sends the end mark before it answers, but the two travel apart: wait for the rows.
    const end = await Promise.race([ended, wait(endWaitMs).then(() => undefined)]);
    const received = builder?.count ?? 0;
    if (broken || end?.count !== count || received !== count) return { result, broken: true };
    return { result, table: whole ?? (builder ?? new OrderTableBuilder(0)).build() };
  } finally {
    clearWait();
    stop();
  }
}
