// Ship dates as epoch milliseconds, for sorting and the date filter. The list
// holds RFC 3339 date-times already checked by parseOrders, so they are read
// field by field: Date.parse costs several times more per order, which counts
// at a million orders.

const ZERO = 48;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const MINUS = 45;

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

/**
 * Epoch ms of an RFC 3339 date-time as parseOrders accepts it
 * (`YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH[:]MM)`), found in `source` from
 * `start` to `end` (a whole list's ship dates are one text); NaN for text of
 * any other shape. Fractions beyond milliseconds are dropped, as Date does.
 */
export function shipTimeOf(source: string, start = 0, end = source.length): number {
  const digit = (at: number) => source.charCodeAt(start + at) - ZERO;
  const code = (at: number) => source.charCodeAt(start + at);
  const length = end - start;
  if (length < 17 || code(4) !== MINUS || code(13) !== COLON) return Number.NaN;
  const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const month = digit(5) * 10 + digit(6);
  const day = digit(8) * 10 + digit(9);
  const hour = digit(11) * 10 + digit(12);
  const minute = digit(14) * 10 + digit(15);
  let at = 16;
  let second = 0;
  let millis = 0;
  if (code(at) === COLON) {
    second = digit(17) * 10 + digit(18);
    at = 19;
    if (code(at) === DOT) {
      at += 1;
      for (let scale = 100; at < length; at++, scale /= 10) {
        const d = digit(at);
        if (d < 0 || d > 9) break;
        if (scale >= 1) millis += d * scale;
      }
    }
  }
  let offsetMinutes = 0;
  const sign = code(at);
  if (sign === PLUS || sign === MINUS) {
    const hours = digit(at + 1) * 10 + digit(at + 2);
    const minutesAt = code(at + 3) === COLON ? at + 4 : at + 3;
    const minutes = digit(minutesAt) * 10 + digit(minutesAt + 1);
    offsetMinutes = (sign === PLUS ? 1 : -1) * (hours * 60 + minutes);
  }
  const value =
    ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 +
    second * 1000 +
    millis;
  return Number.isFinite(value) ? value : Number.NaN;
}
