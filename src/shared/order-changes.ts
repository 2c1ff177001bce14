// What changed in an environment's order list since the refresh before, as
// main hands it to the renderer (`orders:changes`) and the CLI prints it. The
// service has no events, so Store Admin works it out itself from the two last
// lists it saved (src/main/orders/changes.ts).

import type { EnvironmentId } from './environments.ts';
import type { Order } from './order.ts';
import type { CancelLogEntry } from './orders-local.ts';

/** The fields of Order that can change while its id stays. */
export const CHANGE_FIELDS = ['complete', 'shipDate', 'quantity', 'petId'] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/**
 * How a gone order left, from this computer's cancel log: the service
 * confirmed a cancel sent from here; a cancel from here may have been what
 * removed it (see MaybeWhy); or nothing from here (cancelled elsewhere, or
 * removed).
 */
export type GoneHow = 'cancelled-here' | 'maybe-cancelled-here' | 'left';

/**
 * Why a cancel from here may have removed a gone order: its answer was lost
 * (or said nothing of what the service did), or it met "not found" for an
 * order the last list held, so the network may have sent it twice and the
 * first copy removed it.
 */
export type MaybeWhy = 'no-answer' | 'not-found-after-listed';

export interface OrderChangesSummary {
  readonly added: number;
  readonly changed: number;
  readonly gone: number;
  /** Of the gone orders, those this computer cancelled. */
  readonly cancelledHere: number;
  /** Epoch ms of the list compared with (the refresh before). */
  readonly since: number;
  /** Epoch ms of the list compared (the last refresh): the list the rows below belong to. */
  readonly at: number;
  /** Orders in that list. */
  readonly count: number;
  /** Orders without an id in either list, which cannot be followed and are not counted above. */
  readonly unidentified: number;
}

export interface ChangedOrder {
  readonly id: string;
  /** Its row in the list compared (the order the service sent). */
  readonly row: number;
  readonly fields: readonly ChangeField[];
  /** The order as it was in the list before... */
  readonly before: Order;
  /** ...and as it is now. */
  readonly after: Order;
}

export interface GoneOrder {
  /** The order as it was in the list before: it is in the service no longer. */
  readonly order: Order & { readonly id: string };
  readonly how: GoneHow;
  /** For a cancel from here: when it was sent (epoch ms). */
  readonly cancelledAt?: number;
  /** For `maybe-cancelled-here`: why. */
  readonly maybe?: MaybeWhy;
}

export type OrderChangesView =
  | {
      readonly kind: 'compared';
      readonly environment: EnvironmentId;
      readonly summary: OrderChangesSummary;
      /** New orders: their ids and rows in the list compared. */
      readonly added: { readonly ids: readonly string[]; readonly rows: readonly number[] };
      readonly changed: readonly ChangedOrder[];
      readonly gone: readonly GoneOrder[];
    }
  | {
      readonly kind: 'nothing-to-compare';
      readonly environment: EnvironmentId;
      /**
       * `no-list`: no list saved yet; `first-list`: one list, no earlier one
       * of this address; `unreadable`: a saved list could not be read.
       */
      readonly reason: 'no-list' | 'first-list' | 'unreadable';
    };

/** A gone order as a departure from the log says it left. */
export function goneBy(order: GoneOrder['order'], departure: Departure): GoneOrder {
  return {
    order,
    how: departure.how,
    cancelledAt: departure.at,
    ...(departure.maybe ? { maybe: departure.maybe } : {}),
  };
}

/** How one order left, from the cancel log. */
export interface Departure {
  readonly how: Exclude<GoneHow, 'left'>;
  readonly at: number;
  readonly maybe?: MaybeWhy;
}

/**
 * How each order the log mentions since `since` left, if it did: a cancel
 * the service confirmed (or a 404 after one), or a cancel that may have
 * removed it: one whose answer was lost, or one that met a 404 for an order
 * the last list held (the cancel's own message says "perhaps by this very
 * cancel"). Orders the log does not name left by themselves. Main's changes
 * and the renderer's list of gone orders read it alike (the renderer from
 * the log as it changes, so a label follows it).
 */
export function departuresFromLog(
  log: readonly CancelLogEntry[],
  since: number,
): Map<string, Departure> {
  const confirmed = new Set<string>();
  const departures = new Map<string, Departure>();
  for (const entry of log) {
    if (entry.result === 'cancelled') confirmed.add(entry.orderId);
    if (entry.at < since) continue;
    const known = departures.get(entry.orderId);
    if (
      entry.result === 'cancelled' ||
      (entry.result === 'not-found' && confirmed.has(entry.orderId))
    ) {
      if (known?.how !== 'cancelled-here')
        departures.set(entry.orderId, { how: 'cancelled-here', at: entry.at });
    } else if (known) {
      continue;
    } else if (
      entry.result === 'gone' ||
      (entry.result === 'failed' && entry.delivery === 'unknown')
    ) {
      departures.set(entry.orderId, {
        how: 'maybe-cancelled-here',
        at: entry.at,
        maybe: 'no-answer',
      });
    } else if (entry.result === 'not-found' && entry.listedAt !== undefined) {
      departures.set(entry.orderId, {
        how: 'maybe-cancelled-here',
        at: entry.at,
        maybe: 'not-found-after-listed',
      });
    }
  }
  return departures;
}
