// How numbers, sizes and times read in the window: plain, local, unambiguous.

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return wholeNumber.format(value);
}

/** HH:MM:SS in local time, as clerks read clocks (the main process words its messages the same way). */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

/** HH:MM in local time, for "figures at 09:33" where seconds would be noise. */
export function formatHourMinute(epochMs: number): string {
  return formatClock(epochMs).slice(0, 5);
}

const KB = 1024;
const MB = 1024 * KB;

export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${formatCount(bytes)} bytes`;
  if (bytes < MB) return `${(bytes / KB).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}

/**
 * An ISO 8601 date-time as a short local `YYYY-MM-DD HH:MM`, for a column of
 * dates: the same length on every row, unambiguous in every locale, and in
 * order when read top to bottom. The text as sent when it does not parse.
 */
export function formatShortDateTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${formatHourMinute(time)}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO 8601 date-time in local time; the text as sent when it does not parse. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateTime.format(time);
}

const dayAndMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** Whether two moments fall on the same local calendar day. */
export function isSameLocalDay(epochMs: number, otherMs: number): boolean {
  const a = new Date(epochMs);
  const b = new Date(otherMs);
  return (
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate()
  );
}

/** A moment in few words: "09:12" today, "21 Nov 09:12" on another day. */
export function formatMoment(epochMs: number, now: number): string {
  const time = formatHourMinute(epochMs);
  return isSameLocalDay(epochMs, now) ? time : `${dayAndMonth.format(epochMs)} ${time}`;
}
