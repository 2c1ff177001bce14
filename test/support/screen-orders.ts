// The orders that screen columns (src/shared/screen-columns.ts) stand for,
// read on their own terms (not through the renderer's table): what a test
// compares with the orders main read.

import type { Order } from '../../src/shared/order.ts';
import { COMPLETE_ABSENT, COMPLETE_TRUE } from '../../src/shared/order-columns.ts';
import type { ScreenColumns } from '../../src/shared/screen-columns.ts';
import { plainDateText, SHIP_AS_SENT, SHIP_PLAIN } from '../../src/shared/ship-dates.ts';

export function ordersOfScreen(columns: ScreenColumns): Order[] {
  const latin1 = new TextDecoder('latin1');
  const ids = latin1.decode(columns.idText);
  const { lineStarts, tabs, quantities, shipTimes, shipForms, complete } = columns;
  const sent = new Map(
    [...columns.sentRows].map((row, s) => [
      row,
      latin1.decode(columns.sentText.subarray(columns.sentStarts[s], columns.sentStarts[s + 1])),
    ]),
  );
  return Array.from({ length: columns.count }, (_, row) => {
    const start = lineStarts[row]!;
    const tab = tabs[row]!;
    const end = lineStarts[row + 1]! - 1;
    const form = shipForms[row];
    const code = complete[row];
    return {
      id: tab > start ? ids.slice(start, tab) : undefined,
      petId: end > tab + 1 ? ids.slice(tab + 1, end) : undefined,
      quantity: Number.isNaN(quantities[row]) ? undefined : quantities[row],
      shipDate:
        form === SHIP_PLAIN
          ? plainDateText(shipTimes[row]!)
          : form === SHIP_AS_SENT
            ? sent.get(row)
            : undefined,
      complete: code === COMPLETE_ABSENT ? undefined : code === COMPLETE_TRUE,
    };
  });
}
