// The streaming order-list scanner: the lists of the parseOrders property
// tests, pushed as bytes cut at random boundaries, read as the reference
// reads them; and the columns it builds hold together.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPLETE_ABSENT, ordersOf, type OrderColumns } from '../../src/shared/order-columns.ts';
import {
  InvalidOrdersError,
  OrderListScanner,
  WEB_PAGE,
} from '../../src/shared/order-list-scanner.ts';
import { dateTimeMs } from '../../src/shared/rfc3339.ts';
import {
  PROPERTY_RUNS,
  cutOffListText,
  expectReadAsReference,
  orderListText,
  plainOrderListText,
  readingOf,
} from '../../tools/fuzz/order-lists.ts';

const utf8 = new TextEncoder();
const latin1 = new TextDecoder('latin1');

/** Pushes `bytes` cut at the given fractions of its length, then finishes. */
function scanInChunks(bytes: Uint8Array, cuts: readonly number[], expectedBytes?: number) {
  const scanner = new OrderListScanner(expectedBytes === undefined ? {} : { expectedBytes });
  const at = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) scanner.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return scanner.finish();
}

/** The columns agree with themselves: sort keys with the id text, times with the date text. */
function expectConsistent(columns: OrderColumns): void {
  const ids = latin1.decode(columns.idText);
  const lines = ids.split('\n').slice(0, -1);
  expect(lines).toHaveLength(columns.count);
  let widestId = 0;
  let widestPetId = 0;
  lines.forEach((line, row) => {
    const [id, petId] = line.split('\t') as [string, string];
    expect(columns.lineStarts[row]).toBe(ids.indexOf(line, columns.lineStarts[row]));
    expect(columns.tabs[row]).toBe(columns.lineStarts[row]! + id.length);
    for (const [text, highs, lows] of [
      [id, columns.idHighs, columns.idLows],
      [petId, columns.petIdHighs, columns.petIdLows],
    ] as const) {
      if (text === '') {
        expect(highs[row]).toBeNaN();
      } else {
        expect(lows[row]).toBeGreaterThanOrEqual(0);
        expect(lows[row]).toBeLessThan(1e9);
        expect(BigInt(highs[row]!) * 1_000_000_000n + BigInt(lows[row]!)).toBe(BigInt(text));
      }
    }
    widestId = Math.max(widestId, id.length);
    widestPetId = Math.max(widestPetId, petId.length);
    const start = columns.shipStarts[row]!;
    const end = columns.shipStarts[row + 1]!;
    if (end === start) expect(columns.shipTimes[row]).toBeNaN();
    else expect(columns.shipTimes[row]).toBe(dateTimeMs(columns.shipText, start, end));
  });
  expect(columns.lineStarts[columns.count]).toBe(columns.idText.length);
  expect(columns.shipStarts[columns.count]).toBe(columns.shipText.length);
  expect([columns.widestId, columns.widestPetId]).toEqual([widestId, widestPetId]);
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

describe('OrderListScanner against the reference, in chunks cut anywhere', () => {
  it('reads valid lists exactly, and its columns hold together', () => {
    let accepted = 0;
    fc.assert(
      fc.property(orderListText(true), cuts, fc.boolean(), (text, at, sized) => {
        const bytes = utf8.encode(text);
        const expected = expectReadAsReference(
          text,
          readingOf(() => {
            const columns = scanInChunks(bytes, at, sized ? bytes.length : undefined);
            expectConsistent(columns);
            return ordersOf(columns);
          }),
        );
        if (expected.ok) accepted++;
      }),
      PROPERTY_RUNS,
    );
    expect(accepted).toBeGreaterThan(PROPERTY_RUNS.numRuns * 0.9);
  });

  it('reads lists in the usual compact form, at the edges of each value, as the reference does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(plainOrderListText(), cuts, (text, at) => {
        const bytes = utf8.encode(text);
        const expected = expectReadAsReference(
          text,
          readingOf(() => {
            const columns = scanInChunks(bytes, at, bytes.length);
            expectConsistent(columns);
            return ordersOf(columns);
          }),
        );
        if (expected.ok) accepted++;
      }),
      PROPERTY_RUNS,
    );
    expect(accepted).toBeGreaterThan(PROPERTY_RUNS.numRuns * 0.5);
  });

  it('refuses what the reference refuses, with the same message', () => {
    fc.assert(
      fc.property(orderListText(false), cuts, (text, at) => {
        expectReadAsReference(
          text,
          readingOf(() => ordersOf(scanInChunks(utf8.encode(text), at))),
        );
      }),
      PROPERTY_RUNS,
    );
  });

  it('refuses a list cut off anywhere', () => {
    fc.assert(
      fc.property(cutOffListText, cuts, (text, at) => {
        expectReadAsReference(
          text,
          readingOf(() => ordersOf(scanInChunks(utf8.encode(text), at))),
        );
      }),
      PROPERTY_RUNS,
    );
  });

  it('reads byte by byte', () => {
    const text =
      '[ {"id" : 9223372036854775807, "p\\u0065tId":-9223372036854775808,"quantity":1.0e1,' +
      '"shipDate":"2026-01-01T10:00:00.5+02:00","complete":false,"x":[{"id":1}]} ,{"id":-0}]';
    const bytes = utf8.encode(text);
    const scanner = new OrderListScanner();
    for (let k = 0; k < bytes.length; k++) scanner.push(bytes.subarray(k, k + 1));
    expect(ordersOf(scanner.finish())).toEqual([
      {
        id: '9223372036854775807',
        petId: '-9223372036854775808',
        quantity: 10,
        shipDate: '2026-01-01T10:00:00.5+02:00',
        complete: false,
      },
      { id: '0', petId: undefined, quantity: undefined, shipDate: undefined, complete: undefined },
    ]);
  });

  it('reads a list cut in two at every byte as it reads it whole', () => {
    // Each cut puts a key, a number or a date at the chunk's end, where the
    // readers take a slower path that never reads past the bytes there are.
    const text =
      '[{"id":1,"petId":2,"quantity":3,"shipDate":"2026-01-01T10:00:00Z","complete":true},' +
      '{"quantity":4,"complete":false,"petId":5,"shipDate":"2026-01-02T10:00:00Z","id":6},' +
      '{ "id": 7, "petId": 8 }]';
    const bytes = utf8.encode(text);
    const whole = ordersOf(scanInChunks(bytes, []));
    expect(whole.map((order) => order.id)).toEqual(['1', '6', '7']);
    for (let k = 1; k < bytes.length; k++) {
      const scanner = new OrderListScanner({ expectedBytes: bytes.length });
      scanner.push(bytes.subarray(0, k));
      scanner.push(bytes.subarray(k));
      expect(ordersOf(scanner.finish()), `cut at ${k}`).toEqual(whole);
    }
  });
});

describe('OrderListScanner', () => {
  it('refuses as soon as an order is known to be wrong, and keeps refusing', () => {
    const scanner = new OrderListScanner();
    scanner.push(utf8.encode('[{"id":1},'));
    expect(() => scanner.push(utf8.encode('{"id":1.5},{"id":'))).toThrow(
      new InvalidOrdersError('order 2: "id" is not a whole number'),
    );
    expect(() => scanner.push(utf8.encode('3}]'))).toThrow('order 2: "id" is not a whole number');
    expect(() => scanner.finish()).toThrow('order 2');
  });

  it('reads the usual compact form strictly, byte for byte', () => {
    const plain = (id: string, date = '"2026-01-01T10:00:00Z"', complete = 'true') =>
      `[{"id":${id},"petId":7,"quantity":1,"shipDate":${date},"complete":${complete}}]`;
    const read = (text: string) => readingOf(() => ordersOf(scanInChunks(utf8.encode(text), [])));
    expect(read(plain('9223372036854775807'))).toMatchObject({
      ok: true,
      orders: [{ id: '9223372036854775807', petId: '7', complete: true }],
    });
    expect(read(plain('9223372036854775808'))).toEqual({
      ok: false,
      message: 'order 1: "id" is too large',
    });
    expect(read(plain('01'))).toMatchObject({ message: expect.stringContaining('not valid JSON') });
    expect(read(plain('1.5'))).toEqual({
      ok: false,
      message: 'order 1: "id" is not a whole number',
    });
    expect(read(plain('1', '"2026-01-01T10:00Z"'))).toMatchObject({ ok: true });
    expect(read(plain('1', '"2026-01-01T10:00:00Z "'))).toEqual({
      ok: false,
      message: 'order 1: "shipDate" is not a date-time',
    });
    expect(read(plain('1', undefined, 'tru'))).toMatchObject({
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('says what is wrong with an answer that is not a list of orders', () => {
    const refusal = (text: string) =>
      readingOf(() => ordersOf(scanInChunks(utf8.encode(text), [])));
    expect(refusal('{"orders":[]}')).toEqual({
      ok: false,
      message: 'the answer is not a list of orders',
    });
    expect(refusal('[{"id":1},[2]]')).toEqual({ ok: false, message: 'item 2 is not an order' });
    expect(refusal('<html>')).toEqual({ ok: false, message: WEB_PAGE });
    expect(refusal('\n  <!DOCTYPE html><p>Sign in</p>')).toEqual({ ok: false, message: WEB_PAGE });
    expect(refusal('')).toMatchObject({ message: expect.stringContaining('cut off') });
    expect(refusal('[{"id":1}] x')).toMatchObject({
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('reads past a byte-order mark at the start, however the chunks cut it', () => {
    const text = '\uFEFF[{"id":9007199254740993,"quantity":2},{"id":2}]';
    const bytes = utf8.encode(text);
    for (const at of [[], [1], [2], [1, 2], [3], [2, 4]]) {
      const orders = ordersOf(
        scanInChunks(
          bytes,
          at.map((byte) => (byte + 0.5) / bytes.length),
        ),
      );
      expect(orders.map((o) => o.id)).toEqual(['9007199254740993', '2']);
    }
    // A mark in the middle, or a broken one, is not JSON.
    expect(readingOf(() => ordersOf(scanInChunks(utf8.encode('[\uFEFF]'), [])))).toMatchObject({
      ok: false,
    });
    expect(
      readingOf(() => ordersOf(scanInChunks(new Uint8Array([0xef, 0xbb, 0x5b, 0x5d]), [0.3]))),
    ).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
    expect(readingOf(() => ordersOf(scanInChunks(new Uint8Array([0xef, 0xbb]), [])))).toMatchObject(
      { ok: false },
    );
  });

  it('reserves a bounded room from a declared length, however tiny the orders', () => {
    // 1 GiB declared over orders of two bytes: sized from their average, that is ~365 million rows.
    const before = process.memoryUsage().arrayBuffers;
    const scanner = new OrderListScanner({ expectedBytes: 2 ** 30 });
    scanner.push(utf8.encode(`[${Array.from({ length: 200 }, () => '{}').join(',')}`));
    const reserved = process.memoryUsage().arrayBuffers - before;
    expect(scanner.count).toBe(200);
    expect(reserved).toBeLessThan(128 * 1024 * 1024);
    // And the list still grows past the first reservation as orders keep coming.
    const more = `,${Array.from({ length: 1_100_000 }, () => '{}').join(',')}]`;
    scanner.push(utf8.encode(more));
    expect(scanner.finish().count).toBe(1_100_200);
  });

  it('reads an order whose unknown value spans many chunks', () => {
    // A long nested value is carried from chunk to chunk and read again only as it doubles.
    const note = `{"id":9007199254740993,"text":"${'x'.repeat(300_000)}","list":[1,[2,{}]]}`;
    const text = `[{"id":1,"note":${note},"petId":9007199254740995},{"id":2}]`;
    const bytes = utf8.encode(text);
    const scanner = new OrderListScanner({ expectedBytes: bytes.length });
    for (let k = 0; k < bytes.length; k += 1000) scanner.push(bytes.subarray(k, k + 1000));
    expect(ordersOf(scanner.finish()).map((o) => [o.id, o.petId])).toEqual([
      ['1', '9007199254740995'],
      ['2', undefined],
    ]);
  });

  it('reads past a value nested deeper than its first room for open containers', () => {
    // 300 levels of objects and arrays in turn: the stack of open containers grows twice over.
    const deep = '[{"a":'.repeat(150) + '"x"' + '}]'.repeat(150);
    const text = `[{"id":5,"deep":${deep},"petId":7},{"id":6,"id2":[${deep}]}]`;
    expect(
      ordersOf(scanInChunks(utf8.encode(text), [0.3, 0.6])).map((o) => [o.id, o.petId]),
    ).toEqual([
      ['5', '7'],
      ['6', undefined],
    ]);
  });

  it('builds exact columns for many orders, sized from the expected bytes', () => {
    const orders = Array.from(
      { length: 5000 },
      (_, i) =>
        `{"id":${9007199254740993n + BigInt(i)},"petId":${i % 7 === 0 ? 'null' : i},"quantity":${i % 5},` +
        `"shipDate":"2026-03-0${1 + (i % 9)}T10:00:00Z","complete":${i % 3 === 0 ? 'null' : i % 2 === 0}}`,
    );
    const bytes = utf8.encode(`[${orders.join(',')}]`);
    const columns = scanInChunks(
      bytes,
      Array.from({ length: 40 }, (_, k) => k / 40),
      bytes.length,
    );
    expect(columns.count).toBe(5000);
    expectConsistent(columns);
    expect(columns.complete[0]).toBe(COMPLETE_ABSENT);
    expect(ordersOf(columns)[4999]).toEqual({
      id: '9007199254745992',
      petId: '4999',
      quantity: 4,
      shipDate: '2026-03-05T10:00:00Z',
      complete: false,
    });
    // Every column is one buffer that can be transferred, and no buffer is much larger than its column.
    const buffers = new Set(
      [
        columns.idText,
        columns.lineStarts,
        columns.tabs,
        columns.idHighs,
        columns.idLows,
        columns.petIdHighs,
        columns.petIdLows,
        columns.quantities,
        columns.shipText,
        columns.shipStarts,
        columns.shipTimes,
        columns.complete,
      ].map((array) => array.buffer),
    );
    expect(buffers.size).toBe(12);
    expect([...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0)).toBeLessThan(
      (columns.count * 53 + columns.idText.length + columns.shipText.length) * 1.07,
    );
  });

  it('takes Buffers and does not keep the chunks it is given', () => {
    const scanner = new OrderListScanner();
    const chunk = Buffer.from('[{"id":12345');
    scanner.push(chunk);
    chunk.fill(0x20); // the caller reuses its buffer
    scanner.push(Buffer.from('6}]'));
    expect(ordersOf(scanner.finish())[0]?.id).toBe('123456');
  });
});
