// RFC 3339 date-times (the interface's "ISO 8601 date-time") read straight
// from bytes: checked by shape and field ranges, and turned into epoch
// milliseconds in the same pass. Per order this is far cheaper than a regular
// expression on a decoded string followed by Date.parse, which counts at a
// million orders.
//
// Accepted: YYYY-MM-DD, then T, t or a space, HH:MM, optional :SS (00-60)
// with an optional fraction of 1-9 digits, then Z, z or ±HH[:]MM. The day is
// checked as 01-31 whatever the month, as the pattern this replaces did.

const ZERO = 48;
const NINE = 57;
const COLON = 58;
const DASH = 45;
const PLUS = 43;
const DOT = 46;
const UPPER_T = 84;
const LOWER_T = 116;
const SPACE = 32;
const UPPER_Z = 90;
const LOWER_Z = 122;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The two-digit number at `at`, or -1 if either byte is not a digit. */
function twoDigits(bytes: Uint8Array, at: number): number {
  const a = bytes[at]! - ZERO;
  const b = bytes[at + 1]! - ZERO;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Epoch ms of the RFC 3339 date-time in `bytes[start, end)`, or NaN if the
 * text is not one. Digits of the fraction past milliseconds are dropped, as
 * Date does.
 */
export function dateTimeMs(bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length < 17) return Number.NaN;
  const s = start;
  const y1 = twoDigits(bytes, s);
  const y2 = twoDigits(bytes, s + 2);
  const month = twoDigits(bytes, s + 5);
  const day = twoDigits(bytes, s + 8);
  const separator = bytes[s + 10];
  const hour = twoDigits(bytes, s + 11);
  const minute = twoDigits(bytes, s + 14);
  if (
    y1 < 0 ||
    y2 < 0 ||
    bytes[s + 4] !== DASH ||
    month < 1 ||
    month > 12 ||
    bytes[s + 7] !== DASH ||
    day < 1 ||
    day > 31 ||
    (separator !== UPPER_T && separator !== LOWER_T && separator !== SPACE) ||
    hour < 0 ||
    hour > 23 ||
    bytes[s + 13] !== COLON ||
    minute < 0 ||
    minute > 59
  ) {
    return Number.NaN;
  }
  let at = s + 16;
  let second = 0;
  let millis = 0;
  if (bytes[at] === COLON) {
    if (at + 3 > end) return Number.NaN;
    second = twoDigits(bytes, at + 1);
    if (second < 0 || second > 60) return Number.NaN;
    at += 3;
    if (at < end && bytes[at] === DOT) {
      at += 1;
      const first = at;
      for (let scale = 100; at < end; at++, scale /= 10) {
        const code = bytes[at]!;
        if (code < ZERO || code > NINE) break;
        if (scale >= 1) millis += (code - ZERO) * scale;
      }
      const digits = at - first;
      if (digits < 1 || digits > 9) return Number.NaN;
    }
  }
  if (at >= end) return Number.NaN;
  const zone = bytes[at];
  let offsetMinutes = 0;
  if (zone === UPPER_Z || zone === LOWER_Z) {
    at += 1;
  } else if (zone === PLUS || zone === DASH) {
    if (at + 5 > end) return Number.NaN;
    const hours = twoDigits(bytes, at + 1);
    const minutesAt = bytes[at + 3] === COLON ? at + 4 : at + 3;
    if (minutesAt + 2 > end) return Number.NaN;
    const minutes = twoDigits(bytes, minutesAt);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return Number.NaN;
    offsetMinutes = (zone === PLUS ? 1 : -1) * (hours * 60 + minutes);
    at = minutesAt + 2;
  } else {
    return Number.NaN;
  }
  if (at !== end) return Number.NaN;
  const year = y1 * 100 + y2;
  return (
    ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 +
    second * 1000 +
    millis
  );
}

/** The same for a decoded string (a date written with escapes); NaN for non-ASCII text. */
export function dateTimeMsOfText(text: string): number {
  const bytes = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (code > 0x7f) return Number.NaN;
    bytes[k] = code;
  }
  return dateTimeMs(bytes, 0, bytes.length);
}

/** Characters of a date-time in the plain form `2026-01-01T10:00:00Z`. */
export const PLAIN_DATE_LENGTH = 20;

/** Days before the first of each month (1-12) in a common year, and the days of each. */
const DAYS_BEFORE_MONTH = new Int32Array([
  0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334,
]);
const DAYS_OF_MONTH = new Int32Array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);

/** Days from 1970-01-01 to the first day of each year 0000-10000, built when first needed. */
let yearStarts: Int32Array | undefined;

function yearStartTable(): Int32Array {
  const table = new Int32Array(10_001);
  for (let year = 0; year <= 10_000; year++) table[year] = daysFromCivil(year, 1, 1);
  return table;
}

// The plain form as five little-endian words: YYYY -MM- DDTH H:MM :SSZ. In
// each, the bytes that must be digits, and what the others must be.
const DIGITS_1 = 0x00ffff00;
const DIGITS_2 = 0xff00ffff;
const DIGITS_3 = 0xffff00ff;
const DIGITS_4 = 0x00ffff00;
const FIXED_1 = DASH | (DASH << 24);
const FIXED_2 = UPPER_T << 16;
const FIXED_3 = COLON << 8;
const FIXED_4 = COLON | (UPPER_Z << 24);

/** Whether every byte of the word is an ASCII digit: each byte's high nibble is 3, and still is with 6 added. */
function allDigits(word: number): boolean {
  return ((word & 0xf0f0f0f0) | (((word + 0x06060606) & 0xf0f0f0f0) >>> 4)) === 0x33333333;
}

/** The two digits at byte `k` and `k + 1` of a word (checked as digits). */
function twoOf(word: number, k: number): number {
  return ((word >>> (8 * k)) & 0x0f) * 10 + ((word >>> (8 * k + 8)) & 0x0f);
}

/**
 * Epoch ms of a date-time in the plain form at byte `start` of `words`: the
 * form ship-dates.ts's plainDateText writes back byte for byte
 * (`YYYY-MM-DDTHH:MM:SSZ`, upper-case T and Z, a real calendar day, no leap
 * second). NaN for anything else, which may still be a date-time (dateTimeMs
 * reads every form). Where this gives a number, dateTimeMs gives the same
 * one. Reads four bytes at a time.
 */
export function plainDateTimeMs(words: DataView, start: number): number {
  const w0 = words.getInt32(start, true);
  const w1 = words.getInt32(start + 4, true);
  const w2 = words.getInt32(start + 8, true);
  const w3 = words.getInt32(start + 12, true);
  const w4 = words.getInt32(start + 16, true);
  if (
    (w1 & ~DIGITS_1) !== FIXED_1 ||
    (w2 & ~DIGITS_2) !== FIXED_2 ||
    (w3 & ~DIGITS_3) !== FIXED_3 ||
    (w4 & ~DIGITS_4) !== FIXED_4 ||
    !allDigits(w0) ||
    !allDigits((w1 & DIGITS_1) | (0x30303030 & ~DIGITS_1)) ||
    !allDigits((w2 & DIGITS_2) | (0x30303030 & ~DIGITS_2)) ||
    !allDigits((w3 & DIGITS_3) | (0x30303030 & ~DIGITS_3)) ||
    !allDigits((w4 & DIGITS_4) | (0x30303030 & ~DIGITS_4))
  ) {
    return Number.NaN;
  }
  const year = twoOf(w0, 0) * 100 + twoOf(w0, 2);
  const month = twoOf(w1, 1);
  const day = twoOf(w2, 0);
  const hour = ((w2 >>> 24) & 0x0f) * 10 + (w3 & 0x0f);
  const minute = twoOf(w3, 2);
  const second = twoOf(w4, 1);
  const starts = (yearStarts ??= yearStartTable());
  const yearStart = starts[year]!;
  const leap = starts[year + 1]! - yearStart - 365;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > DAYS_OF_MONTH[month]! + (month === 2 ? leap : 0) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return Number.NaN;
  }
  const days = yearStart + DAYS_BEFORE_MONTH[month]! + (month > 2 ? leap : 0) + day - 1;
  return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000;
}
