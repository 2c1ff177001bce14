// Ship dates kept small: most services write them one way,
// `YYYY-MM-DDTHH:MM:SSZ`, and that text is exactly what the epoch ms the
// table keeps for sorting and filtering write back. So a date in that form is
// one byte (its form) beside its time, and only a date written otherwise (an
// offset, a fraction, a lower-case t) keeps its text as sent. At a million
// orders that is 20 MB less than keeping every text, and every date still
// reads as the service sent it. Main's scanner tells each date's form as it
// reads it (order-list-scanner.ts), main's columns keep only the texts of
// dates written otherwise, and so does the renderer's table.

/** No ship date. */
export const SHIP_ABSENT = 0;
/** `YYYY-MM-DDTHH:MM:SSZ`: the text is plainDateText of the time. */
export const SHIP_PLAIN = 1;
/** Written another way: the text is kept. */
export const SHIP_AS_SENT = 2;

const ZERO = 48;
const DASH = 45;
const COLON = 58;
const UPPER_T = 84;
const UPPER_Z = 90;
const DAY_MS = 86_400_000;

function digits(text: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const digit = text[at + k]! - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether `text[start, end)` is a date-time in the plain form that
 * plainDateText writes back byte for byte: a real calendar day, no leap
 * second, upper-case T and Z.
 */
export function isPlainDate(text: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 20) return false;
  const s = start;
  if (
    text[s + 4] !== DASH ||
    text[s + 7] !== DASH ||
    text[s + 10] !== UPPER_T ||
    text[s + 13] !== COLON ||
    text[s + 16] !== COLON ||
    text[s + 19] !== UPPER_Z
  ) {
    return false;
  }
  const year = digits(text, s, 4);
  const month = digits(text, s + 5, 2);
  const day = digits(text, s + 8, 2);
  const hour = digits(text, s + 11, 2);
  const minute = digits(text, s + 14, 2);
  const second = digits(text, s + 17, 2);
  return (
    year >= 0 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 59
  );
}

/** The first and last times plainDateText writes: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
const FIRST_PLAIN_MS = -62_167_219_200_000;
const LAST_PLAIN_MS = 253_402_300_799_000;

/** Whether plainDateText writes this time as a date in the plain form: a whole second in years 0000 to 9999. */
export function isPlainTime(ms: number): boolean {
  return Number.isInteger(ms) && ms % 1000 === 0 && ms >= FIRST_PLAIN_MS && ms <= LAST_PLAIN_MS;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:MM:SSZ` of an epoch ms in years 0000 to 9999 (H. Hinnant's civil_from_days). */
export function plainDateText(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const seconds = Math.floor(inDay / 1000);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(Math.floor(seconds / 3600), 2)}:${pad(
    Math.floor(seconds / 60) % 60,
    2,
  )}:${pad(seconds % 60, 2)}Z`;
}

/** The texts of the dates kept as sent: which rows, and their bytes one after another. */
export interface SentDates {
  /** Ascending. */
  readonly rows: Uint32Array;
  /** Where each one's text starts in `text`; one more entry for the end. */
  readonly starts: Uint32Array;
  readonly text: Uint8Array;
}

/** The text kept for `row` (one of `dates.rows`). */
export function sentDateOf(dates: SentDates, row: number): string | undefined {
  let low = 0;
  let high = dates.rows.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = dates.rows[middle]!;
    if (at === row) {
      return String.fromCharCode(
        ...dates.text.subarray(dates.starts[middle], dates.starts[middle + 1]),
      );
    }
    if (at < row) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
