// How numbers, sizes and times read in the window: in the desktop's locale,
// one form everywhere (src/shared/display-format.ts, which main's messages
// use too). Ids are never formatted as numbers: they are names.

import {
  formatCount,
  formatDateTimeMs,
  formatOneDecimal,
  setDisplayLocale,
} from '../../shared/display-format.ts';

export {
  formatClock,
  formatCount,
  formatHourMinute,
  formatMoment,
  formatMomentWithSeconds,
  timeZoneName,
} from '../../shared/display-format.ts';

/**
 * The locale the window follows: the one main gives (the desktop's), else
 * the page's own language (the development harness has no desktop to ask).
 */
export function followLocale(locale: string | undefined): void {
  setDisplayLocale(locale ?? (typeof navigator === 'undefined' ? undefined : navigator.language));
}

const KB = 1024;
const MB = 1024 * KB;

export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${formatCount(bytes)} bytes`;
  if (bytes < MB) return `${formatOneDecimal(bytes / KB)} KB`;
  return `${formatOneDecimal(bytes / MB)} MB`;
}

/** An ISO 8601 date-time in local time, as every date on screen reads; the text as sent when it does not parse. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : formatDateTimeMs(time);
}

/** A moment in epoch ms, in the same form. */
export { formatDateTimeMs };

/** The ship date column's text: the same form as every other date (one form everywhere). */
export function formatShortDateTime(iso: string): string {
  return formatDateTime(iso);
}
