// What the renderer takes from a list's stream: a part as main makes it
// passes as it is; a part of any other shape is refused with a reason, so
// the list fails instead of showing rows out of place.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ordersOf, type OrderColumns } from '../../src/shared/order-columns.ts';
import { InvalidOrdersError } from '../../src/shared/parse-orders.ts';
import { checkOrderStreamMessage } from '../../src/shared/order-stream.ts';
import {
  packedLength,
  packScreenColumns,
  screenColumnsOf,
  unpackScreenColumns,
  type ScreenColumns,
} from '../../src/shared/screen-columns.ts';
import { SHIP_ABSENT, SHIP_AS_SENT, SHIP_PLAIN } from '../../src/shared/ship-dates.ts';
import { columnsOf } from '../renderer/features/orders/table/table-of.ts';
import { ordersOfScreen } from '../support/screen-orders.ts';
import { OrderListScanner } from '../../src/shared/order-list-scanner.ts';
import { orderListText, PROPERTY_RUNS } from '../../tools/fuzz/order-lists.ts';

const main = columnsOf([
  { id: '9223372036854775807', petId: '-7', quantity: 2, shipDate: '2025-06-13T19:34:25Z' },
  { id: '1', complete: true, shipDate: '2024-01-01T00:00:00+02:00' },
  { petId: '42', complete: false, shipDate: '2024-01-01T00:00:00.5Z' },
]);
const whole = screenColumnsOf(main, 0);
const part = screenColumnsOf(main, 1, 3);

describe('screenColumnsOf', () => {
  test('any rows of any valid list read as main read them; only dates not in the plain form keep their text', () => {
    fc.assert(
      fc.property(
        orderListText(true),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, a, b) => {
          const scanner = new OrderListScanner();
          let columns: OrderColumns | undefined;
          try {
            scanner.push(new TextEncoder().encode(text));
            columns = scanner.finish();
          } catch (error) {
            if (!(error instanceof InvalidOrdersError)) throw error;
          }
          fc.pre(columns !== undefined); // a few generated lists are refused whole
          const [from, to] = [a, b].map((x) => Math.floor(x * columns.count)).sort((x, y) => x - y);
          const screen = screenColumnsOf(columns, from!, to);
          expect(ordersOfScreen(screen)).toEqual(ordersOf(columns).slice(from, to));
          expect(checkOrderStreamMessage({ kind: 'rows', from: 0, columns: screen })).toEqual({
            kind: 'rows',
            from: 0,
            columns: screen,
          });
          // Packed into one buffer and read back as views on it: the same columns.
          const packed = new Uint8Array(8 + packedLength(screen));
          expect(packScreenColumns(screen, packed, 8)).toBe(packedLength(screen));
          expect(unpackScreenColumns(packed.buffer, 8)).toEqual(screen);
        },
      ),
      PROPERTY_RUNS,
    );
  });

  test('a plain date is a form, not text; the others keep theirs', () => {
    expect([...whole.shipForms]).toEqual([SHIP_PLAIN, SHIP_AS_SENT, SHIP_AS_SENT]);
    expect([...whole.sentRows]).toEqual([1, 2]);
    expect(new TextDecoder().decode(whole.sentText)).toBe(
      '2024-01-01T00:00:00+02:002024-01-01T00:00:00.5Z',
    );
  });
});

describe('checkOrderStreamMessage', () => {
  test('takes rows, the end mark and the failure as main sends them', () => {
    expect(checkOrderStreamMessage({ kind: 'rows', from: 1, columns: part })).toEqual({
      kind: 'rows',
      from: 1,
      columns: part,
    });
    expect(checkOrderStreamMessage({ kind: 'rows', from: 0, columns: whole, expected: 9 })).toEqual(
      { kind: 'rows', from: 0, columns: whole, expected: 9 },
    );
    expect(checkOrderStreamMessage({ kind: 'end', count: 3 })).toEqual({ kind: 'end', count: 3 });
    expect(checkOrderStreamMessage({ kind: 'failed' })).toEqual({ kind: 'failed' });
  });

  const broken: [string, (columns: ScreenColumns) => unknown][] = [
    ['a count that is not a row count', (c) => ({ ...c, count: -1 })],
    ['a column of another kind', (c) => ({ ...c, quantities: Array.from(c.quantities) })],
    ['a column one entry short', (c) => ({ ...c, tabs: c.tabs.subarray(1) })],
    ['line starts that do not span the id text', (c) => ({ ...c, idText: c.idText.subarray(1) })],
    ['a tab out of its line', (c) => ({ ...c, tabs: c.tabs.map((t) => t + 40) })],
    [
      'a date kept for a row whose form is plain',
      (c) => ({
        ...c,
        shipForms: c.shipForms.map((f, k) => (k === 2 ? SHIP_PLAIN : f)),
        shipTimes: c.shipTimes.map((t, k) => (k === 2 ? 1_704_067_200_000 : t)),
      }),
    ],
    [
      'a row whose form says kept, without its date',
      (c) => ({ ...c, shipForms: c.shipForms.map(() => SHIP_AS_SENT) }),
    ],
    ['an unknown date form', (c) => ({ ...c, shipForms: c.shipForms.map(() => 3) })],
    ['kept dates that do not span their text', (c) => ({ ...c, sentText: c.sentText.subarray(1) })],
    ['an unknown complete code', (c) => ({ ...c, complete: c.complete.map(() => 3) })],
    [
      'a letter among the ids',
      (c) => {
        const idText = c.idText.slice();
        idText[0] = 0x41;
        return { ...c, idText };
      },
    ],
    [
      'a line break inside an id',
      // Row 0's id reads "1\n2" and row 1's is 2: a search by id would find the wrong line.
      (c) => ({
        ...c,
        count: 2,
        idText: new TextEncoder().encode('1\n2\t\n2\t\n'),
        lineStarts: Uint32Array.of(0, 5, 8),
        tabs: Uint32Array.of(3, 6),
        quantities: c.quantities.subarray(0, 2),
        shipTimes: c.shipTimes.subarray(0, 2),
        shipForms: c.shipForms.subarray(0, 2),
        sentRows: c.sentRows.subarray(0, 1),
        sentStarts: c.sentStarts.subarray(0, 2),
        sentText: c.sentText.subarray(0, c.sentStarts[1]),
        complete: c.complete.subarray(0, 2),
      }),
    ],
    [
      'an id longer than an int64',
      (c) => {
        const ids = '12345678901234567890\t-7\n1\t\n\t42\n';
        const tab = ids.indexOf('\t');
        return {
          ...c,
          idText: new TextEncoder().encode(ids),
          lineStarts: Uint32Array.from(c.lineStarts, (at, k) => (k === 0 ? 0 : at + 1)),
          tabs: Uint32Array.from(c.tabs, (at, k) => (k === 0 ? tab : at + 1)),
        };
      },
    ],
    ['a quantity without end', (c) => ({ ...c, quantities: c.quantities.map(() => Infinity) })],
    [
      'a plain date without its time',
      (c) => ({ ...c, shipTimes: c.shipTimes.map((t, k) => (k === 0 ? Number.NaN : t)) }),
    ],
    [
      'a plain date past the year 9999',
      (c) => ({ ...c, shipTimes: c.shipTimes.map((t, k) => (k === 0 ? 1.5e15 : t)) }),
    ],
    [
      'a time for a row without a date',
      (c) => ({ ...c, shipForms: c.shipForms.map((f, k) => (k === 0 ? SHIP_ABSENT : f)) }),
    ],
  ];
  test.each(broken)('refuses rows with %s', (reason, breakIt) => {
    const checked = checkOrderStreamMessage({ kind: 'rows', from: 0, columns: breakIt(whole) });
    expect(checked).toBeTypeOf('string');
    // Each case fails for its own reason, not for one an earlier check catches.
    const words: Record<string, RegExp> = {
      'a count that is not a row count': /count/,
      'a column of another kind': /quantities is not/,
      'a column one entry short': /tabs holds/,
      'line starts that do not span the id text': /span idText/,
      'a tab out of its line': /ids are out of place/,
      'a date kept for a row whose form is plain': /kept for a row without one/,
      'a row whose form says kept, without its date': /ship date is out of place/,
      'an unknown date form': /date form is not a known code/,
      'kept dates that do not span their text': /span sentText/,
      'an unknown complete code': /complete/,
      'a letter among the ids': /row 0's ids are not ids/,
      'a line break inside an id': /row 0's ids are not ids/,
      'an id longer than an int64': /row 0's ids are not ids/,
      'a quantity without end': /quantity is not a whole number/,
      'a plain date without its time': /row 0's ship time does not fit its date/,
      'a plain date past the year 9999': /row 0's ship time does not fit its date/,
      'a time for a row without a date': /row 0's ship time does not fit its date/,
    };
    expect(checked).toMatch(words[reason]!);
  });

  test('refuses what is not a message of the stream', () => {
    for (const data of [
      null,
      'rows',
      { kind: 'rows', columns: part },
      { kind: 'rows', from: 1.5, columns: part },
      { kind: 'rows', from: 0, columns: part, expected: 'many' },
      { kind: 'end' },
      { kind: 'other' },
    ])
      expect(checkOrderStreamMessage(data), JSON.stringify(data)).toBeTypeOf('string');
  });
});
