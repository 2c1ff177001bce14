// What the renderer takes from a list's stream: a part as main makes it
// passes as it is; a part of any other shape is refused with a reason, so
// the list fails instead of showing rows out of place.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ordersOf } from '../../src/shared/order-columns.ts';
import { checkOrderStreamMessage } from '../../src/shared/order-stream.ts';
import {
  packedLength,
  packScreenColumns,
  screenColumnsOf,
  unpackScreenColumns,
  type ScreenColumns,
} from '../../src/shared/screen-columns.ts';
import { SHIP_AS_SENT, SHIP_PLAIN } from '../../src/shared/ship-dates.ts';
import { columnsOf } from '../renderer/features/orders/table-of.ts';
import { ordersOfScreen } from '../support/screen-orders.ts';
import { OrderListScanner } from '../../src/shared/order-list-scanner.ts';
import { orderListText, PROPERTY_RUNS } from './support/order-lists.ts';

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
          scanner.push(new TextEncoder().encode(text));
          const columns = scanner.finish();
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
      (c) => ({ ...c, shipForms: c.shipForms.map(() => SHIP_PLAIN) }),
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
      'a letter among the ids': /other than ids/,
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
