// HTTP-date in the three forms RFC 9110 section 5.6.7 says a recipient must
// accept. Date.parse is not used: it reads asctime as local time and its
// handling of the obsolete forms differs between engines.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
// Sunday, 06-Nov-94 08:49:37 GMT
const RFC_850 = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
// Sun Nov  6 08:49:37 1994
const ASCTIME = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

function toEpoch(
  year: number,
  monthName: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), 0);
  // Reject 31 Feb and the like, which the Date would roll over.
  return date.getUTCDate() === day ? date.getTime() : undefined;
}

/**
 * RFC 850 years have two digits: per RFC 9110, one that appears to be more
 * than 50 years in the future is in the past century.
 */
function fullYear(twoDigits: number, now: number): number {
  const currentYear = new Date(now).getUTCFullYear();
  let year = Math.floor(currentYear / 100) * 100 + twoDigits;
  if (year > currentYear + 50) year -= 100;
  return year;
}

/** Epoch ms of an HTTP-date in any of its three forms, or undefined. */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  const text = value.trim();
  let m = IMF_FIXDATE.exec(text);
  if (m)
    return toEpoch(Number(m[3]), m[2]!, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = RFC_850.exec(text);
  if (m) {
    return toEpoch(
      fullYear(Number(m[3]), now),
      m[2]!,
      Number(m[1]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6]),
    );
  }
  m = ASCTIME.exec(text);
  if (m)
    return toEpoch(
      Number(m[6]),
      m[1]!,
      Number(m[2]!.trim()),
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
    );
  return undefined;
}

/**
 * How far the server's clock is ahead of ours, from its `Date` header
 * (0 when absent or unreadable). Times the server states in its own clock
 * are converted to ours by subtracting this.
 */
export function serverClockSkew(dateHeader: string | null | undefined, now: number): number {
  if (!dateHeader) return 0;
  const serverNow = parseHttpDate(dateHeader, now);
  return serverNow === undefined ? 0 : serverNow - now;
}
