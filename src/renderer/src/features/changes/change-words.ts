// Plain words for changes since the last refresh: the one-line summary, when
// the list compared with is from, a field's value before, how an order left.

import type {
  ChangeField,
  GoneHow,
  MaybeWhy,
  OrderChangesSummary,
} from '../../../../shared/order-changes.ts';
import type { Order } from '../../../../shared/order.ts';
import { formatCount, formatDateTime, formatHourMinute, formatMoment } from '../../format.ts';

/** "+120 new, 35 gone, 12 changed since 09:12", or "No changes since 09:12". */
export function summaryWords(summary: OrderChangesSummary, now: number): string {
  const since = formatMoment(summary.since, now);
  if (summary.added + summary.gone + summary.changed === 0) return `No changes since ${since}`;
  return `+${formatCount(summary.added)} new, ${formatCount(summary.gone)} gone, ${formatCount(summary.changed)} changed since ${since}`;
}

/** A field's value as the details show it. */
export function fieldValueWords(order: Order, field: ChangeField): string {
  const value = order[field];
  if (value === undefined) return 'not given';
  if (field === 'complete') return value ? 'Yes' : 'No';
  if (field === 'shipDate') return formatDateTime(String(value));
  if (field === 'quantity') return formatCount(Number(value));
  return String(value);
}

/** How a gone order left, in full: the tooltip of its few words. */
export function goneTitle(how: GoneHow, maybe: MaybeWhy | undefined): string {
  switch (how) {
    case 'cancelled-here':
      return 'Cancelled from this computer; the service confirmed it';
    case 'maybe-cancelled-here':
      return maybe === 'not-found-after-listed'
        ? 'A cancel sent from this computer found it no longer there, though the list before held it: it may have been this one, if the network sent it twice'
        : 'A cancel sent from this computer got no answer: it may have been this one';
    case 'left':
      return 'Cancelled elsewhere or removed: no cancel for it was sent from this computer';
  }
}

/** How a gone order left, in a few words for the list of gone orders. */
export function goneWords(how: GoneHow, cancelledAt: number | undefined): string {
  switch (how) {
    case 'cancelled-here':
      return cancelledAt === undefined
        ? 'Cancelled here'
        : `Cancelled here at ${formatHourMinute(cancelledAt)}`;
    case 'maybe-cancelled-here':
      return 'Maybe cancelled here';
    case 'left':
      return 'Not cancelled here';
  }
}
