// An order list as columns: what the order-list scanner builds from the
// response bytes, and what main reads, caches and compares (the screen is
// sent a part of it, screen-columns.ts). A million orders are a dozen typed
// arrays, each one buffer, not a million objects for the garbage collector
// to walk.
//
// Row i of a list of `count` orders:
//
//   ids       idText[lineStarts[i] .. tabs[i])          the order id, ASCII digits ("" when absent)
//             idText[tabs[i] + 1 .. lineStarts[i+1] - 1) the pet id
//             so idText is `id \t petId \n` per row, which is also the search index
//   keys      idHighs[i] * 1e9 + idLows[i] = the order id, exactly (high a whole double, NaN
//             when absent; 0 <= low < 1e9, so a Uint32); the same for the pet id in petIdHighs /
//             petIdLows. Main matches lists on them (changes-diff.ts); the renderer reads the
//             same keys from the digits when it sorts (integer-sort.ts).
//   quantity  quantities[i], NaN when absent
//   ship date shipTimes[i], its epoch ms (NaN when absent), and shipForms[i], how it was
//             written (ship-dates.ts): SHIP_PLAIN is the text plainDateText(shipTimes[i])
//             writes back, so only a date written otherwise (SHIP_AS_SENT) keeps its text as
//             the service sent it, shipText[shipStarts[i] .. shipStarts[i+1]) (RFC 3339,
//             ASCII; empty for the others)
//   complete  complete[i]: COMPLETE_FALSE, COMPLETE_TRUE or COMPLETE_ABSENT
//
// Ids are canonical int64 decimal text ("-0" is written "0"), so they are
// exact above 2^53 and go into cancel URLs as they are. The two text columns
// are bytes, not strings, so they are copied and sent as they are; a reader
// decodes each once (latin1 is exact: every byte is ASCII).

import type { Order } from './order.ts';
import { plainDateText, SHIP_AS_SENT, SHIP_PLAIN } from './ship-dates.ts';

export const COMPLETE_FALSE = 0;
export const COMPLETE_TRUE = 1;
export const COMPLETE_ABSENT = 2;

export interface OrderColumns {
  readonly count: number;
  /** `id \t petId \n` per row, ASCII. */
  readonly idText: Uint8Array;
  /** Where each row's line starts in idText; count + 1 entries, the last is idText's length. */
  readonly lineStarts: Uint32Array;
  /** Where each row's tab is in idText. */
  readonly tabs: Uint32Array;
  readonly idHighs: Float64Array;
  readonly idLows: Uint32Array;
  readonly petIdHighs: Float64Array;
  readonly petIdLows: Uint32Array;
  readonly quantities: Float64Array;
  /** The ship dates kept as sent (SHIP_AS_SENT), one after another, ASCII. */
  readonly shipText: Uint8Array;
  /** Where each row's kept ship date starts in shipText; count + 1 entries. */
  readonly shipStarts: Uint32Array;
  readonly shipTimes: Float64Array;
  /** SHIP_ABSENT, SHIP_PLAIN or SHIP_AS_SENT per row. */
  readonly shipForms: Uint8Array;
  readonly complete: Uint8Array;
  /** Characters of the longest order id and pet id, so a grid can size its columns. */
  readonly widestId: number;
  readonly widestPetId: number;
}

/** The orders of a list as objects (for the CLI and small lists; a grid should read the columns). */
export function ordersOf(columns: OrderColumns): Order[] {
  const latin1 = new TextDecoder('latin1');
  const ids = latin1.decode(columns.idText);
  const ships = latin1.decode(columns.shipText);
  const { lineStarts, tabs, quantities, shipStarts, shipTimes, shipForms, complete } = columns;
  const orders = new Array<Order>(columns.count);
  for (let row = 0; row < columns.count; row++) {
    const start = lineStarts[row]!;
    const tab = tabs[row]!;
    const end = lineStarts[row + 1]! - 1;
    const form = shipForms[row];
    const quantity = quantities[row]!;
    const code = complete[row];
    orders[row] = {
      id: tab > start ? ids.slice(start, tab) : undefined,
      petId: end > tab + 1 ? ids.slice(tab + 1, end) : undefined,
      quantity: Number.isNaN(quantity) ? undefined : quantity,
      shipDate:
        form === SHIP_PLAIN
          ? plainDateText(shipTimes[row]!)
          : form === SHIP_AS_SENT
            ? ships.slice(shipStarts[row], shipStarts[row + 1])
            : undefined,
      complete: code === COMPLETE_ABSENT ? undefined : code === COMPLETE_TRUE,
    };
  }
  return orders;
}
