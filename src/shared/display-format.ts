// How dates, times and numbers read, in one form everywhere: the window's
// screens and main's own messages alike. They follow the desktop's locale
// (Electron's app.getSystemLocale(), given once at start), so a clerk sees
// their own order of day and month and their own 12- or 24-hour clock. Until
// a locale is given, main's messages keep the plain 24-hour form (the command
// line's output stays the same on every machine); the page gives its own
// language where main has no locale to give (the development harness).

let chosen: string | undefined;
let formats: Formats | undefined;

/** The locale everything is formatted for from now on; undefined goes back to the default. */
export function setDisplayLocale(locale: string | undefined): void {
  chosen = locale !== undefined && isUsableLocale(locale) ? locale : undefined;
  formats = undefined;
}

/** The locale in use; undefined until one is given. */
export function displayLocale(): string | undefined {
  return chosen;
}

function isUsableLocale(locale: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0;
  } catch {
    return false;
  }
}

interface Formats {
  readonly count: Intl.NumberFormat;
  readonly oneDecimal: Intl.NumberFormat;
  /** Time of day with seconds: "9:33:00 AM", "09:33:00". */
  readonly clock: Intl.DateTimeFormat | undefined;
  /** Time of day: "9:33 AM", "09:33". */
  readonly hourMinute: Intl.DateTimeFormat | undefined;
  /** Day and time: "Jun 13, 2025, 3:41 AM", "13 Jun 2025, 03:41". */
  readonly dateTime: Intl.DateTimeFormat;
  /** A day: "Jun 13, 2025". */
  readonly day: Intl.DateTimeFormat;
  /** A day of this year: "Jun 13". */
  readonly dayOfYear: Intl.DateTimeFormat;
  readonly zone: Intl.DateTimeFormat;
  /** A day the service named, in UTC as HTTP dates are: "June 30, 2027", "30 June 2027". */
  readonly serviceDay: Intl.DateTimeFormat;
  /** Another day than today, in a message: "Nov 22", "22 November". */
  readonly otherDay: Intl.DateTimeFormat;
}

function current(): Formats {
  if (formats) return formats;
  const locale = displayLocale();
  // Without a locale main's messages keep HH:MM:SS: no clock formats are made.
  const clock =
    locale === undefined ? undefined : new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const hourMinute =
    locale === undefined ? undefined : new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  formats = {
    count: new Intl.NumberFormat(locale ?? 'en-US', { maximumFractionDigits: 0 }),
    oneDecimal: new Intl.NumberFormat(locale ?? 'en-US', {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }),
    clock,
    hourMinute,
    dateTime: new Intl.DateTimeFormat(locale ?? 'en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
    }),
    day: new Intl.DateTimeFormat(locale ?? 'en-US', { dateStyle: 'medium' }),
    dayOfYear: new Intl.DateTimeFormat(locale ?? 'en-US', { month: 'short', day: 'numeric' }),
    zone: new Intl.DateTimeFormat(locale ?? 'en-US', { timeZoneName: 'short' }),
    serviceDay: new Intl.DateTimeFormat(locale ?? 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }),
    otherDay:
      locale === undefined
        ? new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long' })
        : new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
  };
  return formats;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A whole number with the locale's grouping: "12,345", "12.345". */
export function formatCount(value: number): string {
  return current().count.format(value);
}

/** A number with one decimal: "1.5", "1,5". */
export function formatOneDecimal(value: number): string {
  return current().oneDecimal.format(value);
}

/** The time of day with seconds, in local time: "9:33:00 AM" or "09:33:00". */
export function formatClock(epochMs: number): string {
  const { clock } = current();
  if (clock) return clock.format(epochMs);
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map(two).join(':');
}

/** The time of day, for "figures at 9:33 AM" where seconds would be noise. */
export function formatHourMinute(epochMs: number): string {
  const { hourMinute } = current();
  if (hourMinute) return hourMinute.format(epochMs);
  const d = new Date(epochMs);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A moment with its day: "Jun 13, 2025, 3:41 AM" (the form of every date on screen). */
export function formatDateTimeMs(epochMs: number): string {
  return current().dateTime.format(epochMs);
}

/** A day the service named (its dates are UTC, as HTTP-dates are): "June 30, 2027". */
export function formatServiceDay(epochMs: number): string {
  return current().serviceDay.format(epochMs);
}

/** "tomorrow" or "on Jun 13" (the day of `epochMs` seen from `now`'s day), or nothing for the same day. */
export function dayWords(epochMs: number, now: number): string {
  if (isSameLocalDay(epochMs, now)) return '';
  if (isSameLocalDay(epochMs, now + 86_400_000)) return 'tomorrow';
  return `on ${current().otherDay.format(epochMs)}`;
}

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

/** A moment in few words: its time today, "Jun 12, 9:12 AM" on another day of the year, else with the year. */
export function formatMoment(epochMs: number, now: number): string {
  if (isSameLocalDay(epochMs, now)) return formatHourMinute(epochMs);
  if (new Date(epochMs).getFullYear() === new Date(now).getFullYear())
    return `${current().dayOfYear.format(epochMs)}, ${formatHourMinute(epochMs)}`;
  return formatDateTimeMs(epochMs);
}

/** The same with seconds: "9:12:03 AM" today, "Jun 12, 9:12:03 AM" on another day. */
export function formatMomentWithSeconds(epochMs: number, now: number): string {
  if (isSameLocalDay(epochMs, now)) return formatClock(epochMs);
  const sameYear = new Date(epochMs).getFullYear() === new Date(now).getFullYear();
  return `${(sameYear ? current().dayOfYear : current().day).format(epochMs)}, ${formatClock(epochMs)}`;
}

/**
 * The local time zone's short name as the locale writes it ("UTC", "CEST",
 * "GMT+2"), at `at`, for saying once which zone the times are in.
 */
export function timeZoneName(at: number): string {
  return (
    current()
      .zone.formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  );
}
