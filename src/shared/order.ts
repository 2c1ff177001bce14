// The Order resource of the interface. Ids are int64 and are held as decimal
// strings everywhere (parse, IPC, display, cancel URL) so ids above 2^53
// survive exactly. No field of Order is marked required, so each may be absent.

export interface Order {
  readonly id?: string;
  readonly petId?: string;
  readonly quantity?: number;
  /** ISO 8601 date-time, as sent. */
  readonly shipDate?: string;
  readonly complete?: boolean;
}

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;

/** True for the canonical decimal text of an int64 ("42", not "042", "-0" or "4.2e1"). */
export function isInt64Text(text: string): boolean {
  if (!INTEGER_TEXT.test(text) || text === '-0') return false;
  if (text.length < 19) return true;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** Orders the decimal texts of integers numerically without converting them. */
export function compareIntegerText(a: string, b: string): number {
  const aNegative = a.startsWith('-');
  const bNegative = b.startsWith('-');
  if (aNegative !== bNegative) return aNegative ? -1 : 1;
  const sign = aNegative ? -1 : 1;
  if (a.length !== b.length) return sign * (a.length - b.length);
  return a < b ? -sign : a > b ? sign : 0;
}
