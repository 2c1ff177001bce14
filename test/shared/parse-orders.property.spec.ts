// Property-based: parseOrders reads generated lists exactly as the
// independent reference does (tools/fuzz/order-lists.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOrders } from '../../src/shared/parse-orders.ts';
import {
  PROPERTY_RUNS,
  cutOffListText,
  expectReadAsReference,
  orderListText,
  readingOf,
} from '../../tools/fuzz/order-lists.ts';

describe('parseOrders against the reference', () => {
  it('reads valid lists exactly: own keys, last of repeated keys, every number form, escaped keys', () => {
    let accepted = 0;
    let bigIds = 0;
    fc.assert(
      fc.property(orderListText(true), (text) => {
        const expected = expectReadAsReference(
          text,
          readingOf(() => parseOrders(text)),
        );
        if (expected.ok) {
          accepted++;
          if (
            expected.orders.some((o) => o.id !== undefined && !Number.isSafeInteger(Number(o.id)))
          )
            bigIds++;
        }
      }),
      PROPERTY_RUNS,
    );
    // The generator must mostly produce accepted lists, with ids above 2^53, or this proves little.
    expect(accepted).toBeGreaterThan(PROPERTY_RUNS.numRuns * 0.9);
    expect(bigIds).toBeGreaterThan(PROPERTY_RUNS.numRuns * 0.2);
  });

  it('refuses what the reference refuses, with the same message', () => {
    let refused = 0;
    fc.assert(
      fc.property(orderListText(false), (text) => {
        if (
          !expectReadAsReference(
            text,
            readingOf(() => parseOrders(text)),
          ).ok
        )
          refused++;
      }),
      PROPERTY_RUNS,
    );
    expect(refused).toBeGreaterThan(PROPERTY_RUNS.numRuns * 0.3);
  });

  it('refuses a list cut off anywhere', () => {
    fc.assert(
      fc.property(cutOffListText, (text) => {
        expectReadAsReference(
          text,
          readingOf(() => parseOrders(text)),
        );
      }),
      PROPERTY_RUNS,
    );
  });
});
