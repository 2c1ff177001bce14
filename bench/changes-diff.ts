// Main process, changes since the last refresh at 1,000,000 orders: two lists
// from the sandbox's order book, one churn step apart (orders shipped,
// completed, arrived and cancelled elsewhere), compared on their columns
// (src/main/orders/changes.ts), against a baseline measured in the same run:
// the same comparison the usual way, with an object per order in a Map by id.
// The bound: under 300 ms in main. Also, without a bound, a list the
// service would send in another order at each refresh (every order moved).

import { pickRows } from '../src/main/orders/changes-diff.ts';
import { compareLists, columnsOfBody } from '../src/main/orders/changes.ts';
import { OrderBook } from '../src/main/sandbox/orders-data.ts';
import { ordersOf } from '../src/shared/order-columns.ts';
import type { Order } from '../src/shared/order.ts';
import { median, ms, type BenchLine } from './report.ts';

const BOUND_MS = 300;

const bodyOf = (book: OrderBook): string =>
  Buffer.concat([...book.listBody().parts]).toString('latin1');

/** The baseline: objects and a Map, as a diff is usually written. */
function diffWithObjects(before: readonly Order[], after: readonly Order[]): number {
  const byId = new Map<string, Order>();
  for (const order of before) if (order.id !== undefined) byId.set(order.id, order);
  let differences = 0;
  for (const order of after) {
    if (order.id === undefined) continue;
    const old = byId.get(order.id);
    if (!old) differences++;
    else {
      byId.delete(order.id);
      if (
        old.petId !== order.petId ||
        old.quantity !== order.quantity ||
        old.complete !== order.complete ||
        Date.parse(old.shipDate ?? '') !== Date.parse(order.shipDate ?? '')
      )
        differences++;
    }
  }
  return differences + byId.size;
}

export async function benchChangesDiff(orders: number, rounds: number): Promise<BenchLine[]> {
  const book = new OrderBook({ count: orders, seed: 1 });
  const before = { receivedAt: 1, columns: columnsOfBody(bodyOf(book)) };
  const [step] = book.churnTo(1, () => Date.UTC(2026, 0, 1));
  const after = { receivedAt: 2, columns: columnsOfBody(bodyOf(book)) };
  const objectsBefore = ordersOf(before.columns);
  const objectsAfter = ordersOf(after.columns);

  const columnar = () => compareLists(before, after);
  const baseline = () => diffWithObjects(objectsBefore, objectsAfter);
  columnar(); // warm
  baseline();
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const [k, run] of [baseline, columnar].entries()) {
      const start = performance.now();
      run();
      times[k]!.push(performance.now() - start);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const [base, diff] = times.map(median) as [number, number];
  const shuffledAfter = {
    receivedAt: 2,
    columns: pickRows(after.columns, shuffledRows(after.columns.count)),
  };
  const shuffledTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    compareLists(before, shuffledAfter);
    shuffledTimes.push(performance.now() - start);
  }
  const shuffled = median(shuffledTimes);
  const found = columnar().diff;
  const expected = step!;
  const counted = `${found.added.length} new, ${found.gone.length} gone, ${found.changed.length} changed`;
  const label = `changes: ${orders.toLocaleString('en')} orders, one churn step apart (${counted})`;
  const right =
    found.added.length === expected.arrived.length &&
    found.gone.length === expected.cancelled.length &&
    found.changed.length === new Set([...expected.shipped, ...expected.completed]).size;
  return [
    {
      name: `${label}: objects in a Map by id (baseline)`,
      value: ms(base),
      figure: { name: 'changes.diff.baseline.ms', value: base, unit: 'ms' },
    },
    {
      name: `${label}: columnar diff on the int64 ids + what it keeps`,
      value: ms(diff),
      figure: {
        name: 'changes.diff.1M.ms',
        value: diff,
        unit: 'ms',
        baseline: base,
        bound: BOUND_MS,
      },
      ratio: diff / base,
      check: {
        ok: diff < BOUND_MS && right,
        rule: right ? `(< ${BOUND_MS} ms)` : '(found other changes than the churn made)',
      },
    },
    {
      name: `${label}: the same, the second list in another order`,
      value: ms(shuffled),
      figure: { name: 'changes.diff.1M.shuffled.ms', value: shuffled, unit: 'ms', baseline: base },
      ratio: shuffled / base,
    },
  ];
}

/** Every row, in a fixed pseudo-random order. */
function shuffledRows(count: number): Uint32Array {
  const rows = new Uint32Array(count);
  for (let i = 0; i < count; i++) rows[i] = i;
  let state = 7;
  for (let i = count - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    const row = rows[i]!;
    rows[i] = rows[j]!;
    rows[j] = row;
  }
  return rows;
}
