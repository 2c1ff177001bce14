import { describe, expect, it } from 'vitest';
import { InvalidOrdersError, parseOrders } from '../../src/shared/parse-orders.ts';

const order = (id: string, extra = ''): string =>
  `{"id":${id},"petId":5,"quantity":1,"shipDate":"2026-01-01T10:00:00Z","complete":false${extra}}`;

describe('parseOrders', () => {
  it('keeps ids above 2^53 exact, found early or late in the list', () => {
    const early = `[${order('9007199254740993')},${order('2')}]`;
    expect(parseOrders(early).map((o) => o.id)).toEqual(['9007199254740993', '2']);
    const filler = Array.from({ length: 2000 }, (_, i) => order(String(i + 1))).join(',');
    const late = `[${filler},${order('9223372036854775807')}]`;
    const parsed = parseOrders(late);
    expect(parsed).toHaveLength(2001);
    expect(parsed.at(-1)?.id).toBe('9223372036854775807');
  });

  it('matches exact digits to the right field whatever the key order, long safe ids included', () => {
    const text =
      '[{"petId":9007199254740995,"id":9007199254740993},{"id":1000000000000001,"petId":9007199254740997},{"id":3}]';
    expect(parseOrders(text).map((o) => [o.id, o.petId])).toEqual([
      ['9007199254740993', '9007199254740995'],
      ['1000000000000001', '9007199254740997'],
      ['3', undefined],
    ]);
  });

  it("reads the order's own id when a nested object has one too", () => {
    const text = '[{"meta":{"id":9007199254740999},"id":9007199254740993,"petId":1}]';
    expect(parseOrders(text)[0]).toMatchObject({ id: '9007199254740993', petId: '1' });
  });

  // Each of these valid lists once came back with a wrong id, or was refused.
  describe("an id is the value of the order object's own key, exact, or the list is refused", () => {
    it('ignores an id inside a nested object', () => {
      const text = '[{"meta":{"id":9007199254740993},"id":9007199254740992}]';
      expect(parseOrders(text)[0]?.id).toBe('9007199254740992');
    });

    it('ignores a petId inside a nested object', () => {
      const text = '[{"note":{"petId":9007199254740993},"id":1,"petId":9007199254740992}]';
      expect(parseOrders(text)[0]).toMatchObject({ id: '1', petId: '9007199254740992' });
    });

    it('keeps the last of repeated keys, as JSON.parse does', () => {
      expect(parseOrders('[{"id":9007199254740993,"id":9007199254740992}]')[0]?.id).toBe(
        '9007199254740992',
      );
    });

    it('refuses a fraction above 2^53 instead of reading it as a whole number', () => {
      expect(() => parseOrders('[{"id":9007199254740992.5}]')).toThrow(
        'order 1: "id" is not a whole number',
      );
    });

    it('reads an escaped key name as the key it spells', () => {
      expect(parseOrders('[{"\\u0069d": 9007199254740993}]')[0]?.id).toBe('9007199254740993');
    });

    it('reads an exponent form whose value is an exact int64', () => {
      for (const form of [
        '9223372036854775769e0',
        '9.223372036854775769e18',
        '922337203685477576.9e1',
        '92233720368547757690E-1',
      ]) {
        expect(parseOrders(`[{"id":${form}}]`)[0]?.id, form).toBe('9223372036854775769');
      }
    });
  });

  it('does not touch digits inside strings', () => {
    const text = `[{"id":1,"note":",\\"id\\":12345678901234567890,","shipDate":"2026-01-01T00:00:00Z"}]`;
    expect(parseOrders(text)[0]).toMatchObject({ id: '1' });
  });

  it('reads null and missing fields as absent', () => {
    expect(parseOrders('[{"id":1,"petId":null},{}]')).toEqual([
      { id: '1', petId: undefined, quantity: undefined, shipDate: undefined, complete: undefined },
      {
        id: undefined,
        petId: undefined,
        quantity: undefined,
        shipDate: undefined,
        complete: undefined,
      },
    ]);
  });

  it('accepts RFC 3339 date-times and rejects others', () => {
    for (const date of [
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:00:00.123+02:00',
      '2026-12-31t23:59:60z',
      '2026-01-01 10:00Z',
      '2026-01-01T10:00:00-0530',
    ]) {
      expect(() => parseOrders(`[{"shipDate":"${date}"}]`), date).not.toThrow();
    }
    for (const date of [
      '2026-13-01T10:00:00Z',
      '2026-01-01',
      'tomorrow',
      '2026-01-32T10:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:00:00',
    ]) {
      expect(() => parseOrders(`[{"shipDate":"${date}"}]`), date).toThrow(InvalidOrdersError);
    }
  });

  it('rejects the whole list for one bad order, saying which', () => {
    expect(() => parseOrders(`[${order('1')},{"id":1.5}]`)).toThrow(
      'order 2: "id" is not a whole number',
    );
    expect(() => parseOrders('[{"id":1e300}]')).toThrow('order 1: "id" is too large');
    expect(() => parseOrders('[{"petId":-9223372036854775809}]')).toThrow('"petId" is too large');
    expect(() => parseOrders('[{"quantity":9007199254740992}]')).toThrow('"quantity" is too large');
    expect(() => parseOrders('[{"quantity":"2"}]')).toThrow('"quantity"');
    expect(() => parseOrders('[{"complete":1}]')).toThrow('"complete"');
    expect(() => parseOrders('{"id":1}')).toThrow('not a list');
    expect(() => parseOrders('[1]')).toThrow('item 1 is not an order');
    expect(() => parseOrders('[{"id":1}')).toThrow('not valid JSON');
    // The interface's ids are integers: a string is not one, whatever it holds.
    expect(() => parseOrders('[{"id":"42"}]')).toThrow('"id" is not a whole number');
    expect(() => parseOrders('[{"id":"12345678901234567890"}]')).toThrow(
      '"id" is not a whole number',
    );
  });
});
