// Sorting a million orders from scratch takes 100-200 ms in the page (keys
// read from the id text, radix passes, then a render); a clerk who clicks a
// column header should see it sorted at once. So once a list is whole and
// the page has been quiet for a moment, the sort orders of the columns that
// cost the most are built while the page is idle, one column per idle
// moment, at 4 bytes a row each. (The order id is left out: lists usually
// come in its order, which costs one pass to see; "complete" is a counting
// sort.) A list still arriving is not prepared (its sort grows as it comes,
// order-table.ts), and a new list cancels what was left of the last one's.

import { useEffect, useReducer } from 'react';
import type { OrderTable, SortColumn } from './order-table.ts';

const PREPARED: readonly SortColumn[] = ['petId', 'shipDate', 'quantity'];
/** The list shows and settles first: the work waits this long after it is whole. */
const QUIET_MS = 1000;

/** After a quiet moment, runs `step` in idle moments until it returns false; returns a cancel. */
function whileIdle(step: () => boolean): () => void {
  // (jsdom has no idle callbacks: a timer stands in.)
  const idle = typeof requestIdleCallback === 'function';
  let idleHandle = 0;
  let cancelled = false;
  const next = () => {
    if (cancelled || !step()) return;
    idleHandle = idle ? requestIdleCallback(next) : window.setTimeout(next, 50);
  };
  const quiet = window.setTimeout(next, QUIET_MS);
  return () => {
    cancelled = true;
    window.clearTimeout(quiet);
    if (idle) cancelIdleCallback(idleHandle);
    else window.clearTimeout(idleHandle);
  };
}

/**
 * The tables whose sorts are built. Not kept in React state: a state value
 * stays on the component's previous render (React keeps it to render the
 * next one) after the next list has taken the screen, and with it a whole
 * list that nothing else holds.
 */
const prepared = new WeakSet<OrderTable>();

/** Whether `table` (undefined while it is still arriving) has its sorts ready. */
export function usePreparedSorts(table: OrderTable | undefined): boolean {
  const [, preparedOne] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (!table || prepared.has(table)) return undefined;
    let at = 0;
    return whileIdle(() => {
      // A column already sorted costs nothing: go on to the next in the same moment.
      while (at < PREPARED.length && !table.prepareSort(PREPARED[at]!)) at++;
      if (at < PREPARED.length) at++;
      if (at < PREPARED.length) return true;
      prepared.add(table);
      preparedOne();
      return false;
    });
  }, [table]);
  return table !== undefined && prepared.has(table);
}
