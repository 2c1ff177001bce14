// What the cancel log says about orders of the list on screen. The service
// has no status field, so these come from the answers to cancels: a 409
// means shipped for good; a cancel, a 404 or a lost answer after the list was
// downloaded mean the row no longer shows the service's current state.

import { OUTCOME_LABELS } from '../../../../shared/bulk-cancel.ts';
import type { CancelLogEntry } from '../../../../shared/orders-local.ts';

export type RowStatus = 'cancelled' | 'shipped' | 'gone' | 'unknown';

/** In full, for the details and exports. */
export const ROW_STATUS_WORDS: Readonly<Record<RowStatus, string>> = {
  cancelled: 'Cancelled',
  shipped: 'Shipped — cannot be cancelled',
  gone: 'Gone — the service no longer has it',
  unknown: 'May have been cancelled — refresh to check',
};

/** Short, for the list's Status column (the full words are its tooltip). */
export const ROW_STATUS_SHORT: Readonly<Record<RowStatus, string>> = {
  cancelled: 'Cancelled',
  shipped: 'Shipped',
  gone: OUTCOME_LABELS.gone,
  unknown: 'May be cancelled',
};

/**
 * Statuses by order id, from the log (oldest entry first) and the time the
 * list was received. A later answer replaces an earlier one, except that
 * shipped stays shipped.
 */
export function rowStatuses(
  log: readonly CancelLogEntry[],
  receivedAt: number,
): ReadonlyMap<string, RowStatus> {
  const statuses = new Map<string, RowStatus>();
  const cancelled = new Set<string>();
  for (const entry of log) {
    if (entry.result === 'cancelled') cancelled.add(entry.orderId);
    if (entry.result === 'already-shipped') {
      statuses.set(entry.orderId, 'shipped');
      continue;
    }
    // Answers older than the list are already reflected in it.
    if (entry.at < receivedAt || statuses.get(entry.orderId) === 'shipped') continue;
    if (entry.result === 'cancelled') statuses.set(entry.orderId, 'cancelled');
    else if (entry.result === 'not-found' || entry.result === 'gone')
      // A 404 for an order this computer saw cancelled is that cancel ("already cancelled at").
      statuses.set(entry.orderId, cancelled.has(entry.orderId) ? 'cancelled' : 'gone');
    else if (entry.delivery === 'unknown') statuses.set(entry.orderId, 'unknown');
  }
  return statuses;
}

/** Whether the log holds a cancel of the order the service confirmed (so a 404 since is that cancel). */
export function cancelledBefore(log: readonly CancelLogEntry[], orderId: string): boolean {
  return log.some((entry) => entry.orderId === orderId && entry.result === 'cancelled');
}

/**
 * An order's status on screen: what this computer's cancels found, else
 * shipped when the list says the order is complete (a cancel of it answers
 * 409: a complete order has shipped, and is never offered a cancel).
 */
export function statusOf(
  statuses: ReadonlyMap<string, RowStatus>,
  id: string | undefined,
  complete: boolean | undefined,
): RowStatus | undefined {
  const logged = id === undefined ? undefined : statuses.get(id);
  return logged ?? (complete === true ? 'shipped' : undefined);
}

/** Whether an order in this status may still be sent a cancel. */
export function canStillCancel(status: RowStatus | undefined): boolean {
  return status === undefined || status === 'unknown';
}
