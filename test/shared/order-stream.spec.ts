// What the renderer takes from a list's stream: a part as main's scanner
// makes it passes as it is; a part of any other shape is refused with a
// reason, so the list fails instead of showing rows out of place.

import { describe, expect, test } from 'vitest';
import { columnsOfRows, type OrderColumns } from '../../src/shared/order-columns.ts';
import { checkOrderStreamMessage } from '../../src/shared/order-stream.ts';
import { columnsOf } from '../renderer/features/orders/table-of.ts';

const whole = columnsOf([
  { id: '9223372036854775807', petId: '-7', quantity: 2, shipDate: '2025-06-13T19:34:25Z' },
  { id: '1', complete: true },
  { petId: '42', complete: false },
]);
const part = columnsOfRows(whole, 1, 3);

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

  const broken: [string, (columns: OrderColumns) => unknown][] = [
    ['a count that is not a row count', (c) => ({ ...c, count: -1 })],
    ['a column of another kind', (c) => ({ ...c, quantities: Array.from(c.quantities) })],
    ['a column one entry short', (c) => ({ ...c, tabs: c.tabs.subarray(1) })],
    ['line starts that do not span the id text', (c) => ({ ...c, idText: c.idText.subarray(1) })],
    ['a tab out of its line', (c) => ({ ...c, tabs: c.tabs.map((t) => t + 40) })],
    [
      'ship dates out of order',
      (c) => {
        const end = c.shipText.length;
        return { ...c, shipStarts: Uint32Array.from([0, end, 0, end]) };
      },
    ],
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
      'ship dates out of order': /ship date is out of place/,
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
