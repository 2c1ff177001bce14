// The sandbox's --churn (orders move on by themselves, seeded, on its clock)
// and --deprecate (any endpoint answered with deprecation headers), over
// real HTTP on loopback.

import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../../src/main/sandbox/cli.ts';
import {
  DEPRECATED_SINCE,
  parseDeprecateSpec,
  SANDBOX_CHANGELOG_URL,
} from '../../../src/main/sandbox/deprecations.ts';
import { CHURN_SHARES, OrderBook } from '../../../src/main/sandbox/orders-data.ts';
import { CHURN_CAPACITY } from '../../../src/main/sandbox/server.ts';
import { call, openSandbox } from './sandbox-harness.ts';

interface ListedOrder {
  id: number;
  shipDate: string;
  complete: boolean;
}

const listOf = async (response: Response) => (await response.json()) as ListedOrder[];
const at = (step: number) => Date.UTC(2026, 0, 1) + step * 60_000;

describe('OrderBook churn', () => {
  it('is the same for the same seed, step by step or all at once, and sized from the book', () => {
    const one = new OrderBook({ count: 2000, seed: 3 });
    const other = new OrderBook({ count: 2000, seed: 3 });
    const stepwise = [...one.churnTo(1, at), ...one.churnTo(2, at), ...one.churnTo(3, at)];
    expect(other.churnTo(3, at)).toEqual(stepwise);
    expect(Buffer.concat([...other.listBody().parts])).toEqual(
      Buffer.concat([...one.listBody().parts]),
    );
    const seeded = new OrderBook({ count: 2000, seed: 4 }).churnTo(1, at);
    expect(seeded).not.toEqual(stepwise.slice(0, 1));

    const [first] = stepwise;
    expect(first!.shipped).toHaveLength(2000 * CHURN_SHARES.ship);
    expect(first!.completed).toHaveLength(2000 * CHURN_SHARES.complete);
    expect(first!.cancelled).toHaveLength(2000 * CHURN_SHARES.cancelElsewhere);
    // New orders take the next ids of the sequence.
    expect(first!.arrived).toEqual([
      '2001',
      '2002',
      '2003',
      '2004',
      '2005',
      '2006',
      '2007',
      '2008',
    ]);
    expect(one.count).toBe(2000 + 3 * 8);
    expect(one.churnSteps).toBe(3);
  });

  it('moves each order as the interface allows: pending ones ship or leave, shipped ones complete', () => {
    const book = new OrderBook({ count: 1000, seed: 9 });
    const pending = new Set(book.orderIds({ status: 'pending' }));
    const shipped = new Set(book.orderIds({ status: 'shipped' }));
    const [step] = book.churnTo(1, at);
    for (const id of step!.shipped) {
      expect(pending.has(id)).toBe(true);
      expect(book.status(BigInt(id))).toBe('shipped');
    }
    for (const id of step!.cancelled) expect(pending.has(id)).toBe(true);
    for (const id of step!.completed) expect(shipped.has(id)).toBe(true);
    for (const id of step!.arrived) expect(book.status(BigInt(id))).toBe('pending');
  });
});

describe('the sandbox with churn', () => {
  it('takes a step every N ms of its clock, and only then', async () => {
    let clock = Date.UTC(2026, 10, 22, 9, 0, 0);
    const sandbox = await openSandbox({ orders: 500, churnEveryMs: 30_000, now: () => clock });
    const before = await listOf(await call(sandbox, '/store/orders'));
    clock += 29_999;
    expect(await listOf(await call(sandbox, '/store/orders'))).toEqual(before);
    clock += 1;
    const after = await listOf(await call(sandbox, '/store/orders'));
    expect(sandbox.churned).toHaveLength(1);
    const step = sandbox.churned[0]!;
    const ids = new Set(after.map((order) => String(order.id)));
    for (const id of step.arrived) expect(ids.has(id)).toBe(true);
    for (const id of step.cancelled) expect(ids.has(id)).toBe(false);
    const shipped = after.find((order) => order.id === Number(step.shipped[0]));
    expect(Date.parse(shipped!.shipDate)).toBe(clock);
    // A clock far ahead takes every step missed, each at its own moment.
    clock += 5 * 30_000;
    await call(sandbox, '/store/orders');
    expect(sandbox.churned).toHaveLength(6);
  });

  it('keeps only the last steps it took, as it keeps only the last requests', async () => {
    let clock = Date.UTC(2026, 10, 22, 9, 0, 0);
    const sandbox = await openSandbox({ orders: 200, churnEveryMs: 5_000, now: () => clock });
    // A day at --churn 5 in a few leaps, each answered: 17,280 steps.
    for (let hour = 1; hour <= 24; hour++) {
      clock += 3_600_000;
      await call(sandbox, '/store/orders');
      expect(sandbox.churned.length).toBeLessThanOrEqual(CHURN_CAPACITY);
    }
    expect(sandbox.churned).toHaveLength(CHURN_CAPACITY);
    // The newest steps: each arrival has a higher id than the one before, the last one the highest in the list.
    const arrivals = sandbox.churned.flatMap((step) => step.arrived.map(BigInt));
    expect(arrivals).toEqual([...arrivals].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const listed = (await listOf(await call(sandbox, '/store/orders'))).map((order) =>
      BigInt(order.id),
    );
    expect(arrivals.at(-1)).toBe(listed.reduce((a, b) => (a > b ? a : b)));
  });

  it('takes --churn SECONDS on the command line', () => {
    expect(parseCliArgs(['--churn', '5'])).toMatchObject({ churnEveryMs: 5000 });
    expect(() => parseCliArgs(['--churn', '0'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--churn', 'soon'])).toThrow(/--churn must be an integer/);
  });
});

describe('the sandbox with --deprecate', () => {
  it('answers a marked endpoint (templates included) with Deprecation, Sunset and Link', async () => {
    const sandbox = await openSandbox({
      orders: 20,
      deprecate: ['/store/orders=2027-06-30', '/v1/store/orders/{orderId}'],
    });
    const list = await call(sandbox, '/store/orders');
    expect(list.status).toBe(200);
    expect(list.headers.get('deprecation')).toBe(`@${DEPRECATED_SINCE / 1000}`);
    expect(list.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(list.headers.get('link')).toBe(
      `<${SANDBOX_CHANGELOG_URL}>; rel="deprecation"; type="text/html", <${SANDBOX_CHANGELOG_URL}>; rel="sunset"; type="text/html"`,
    );
    const [id] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const cancel = await call(sandbox, `/store/orders/${id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(204);
    expect(cancel.headers.get('deprecation')).toBe(`@${DEPRECATED_SINCE / 1000}`);
    expect(cancel.headers.get('sunset')).toBeNull();
    // Answers to other endpoints carry none.
    const pet = await call(sandbox, '/pets/1');
    expect(pet.headers.get('link')).toBeNull();
    expect((await call(sandbox, '/store')).headers.get('deprecation')).toBeNull();
  });

  it('reads the sunset as a date, an HTTP-date or @ epoch seconds, and refuses anything else', () => {
    const sunset = Date.UTC(2027, 5, 30);
    expect(parseDeprecateSpec('/store/orders=2027-06-30')).toEqual({
      path: '/store/orders',
      sunsetAt: sunset,
    });
    expect(parseDeprecateSpec('/store/orders=Wed, 30 Jun 2027 00:00:00 GMT').sunsetAt).toBe(sunset);
    expect(parseDeprecateSpec(`/pets/{petId}=@${sunset / 1000}`)).toEqual({
      path: '/pets/{petId}',
      sunsetAt: sunset,
    });
    expect(parseDeprecateSpec('/store/orders')).toEqual({ path: '/store/orders' });
    expect(() => parseDeprecateSpec('/store/orders=2027-02-30')).toThrow(/not a sunset date/);
    expect(() => parseDeprecateSpec('store orders')).toThrow(/not an endpoint path/);
    expect(
      parseCliArgs(['--deprecate', '/store/orders', '--deprecate', '/pets/{id}=2028-01-01']),
    ).toMatchObject({
      deprecate: [
        { path: '/store/orders' },
        { path: '/pets/{id}', sunsetAt: Date.UTC(2028, 0, 1) },
      ],
    });
    expect(() => parseCliArgs(['--deprecate', '/x=never'])).toThrow(
      /--deprecate: "never" is not a sunset date/,
    );
  });
});
