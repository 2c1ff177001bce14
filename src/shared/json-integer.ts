// The exact integer a JSON number denotes, whatever its form: `1.0`, `15e-1`
// and `9.223372036854775769e18` are numbers a service may send for a whole
// value, and `9007199254740992.5` is not a whole number even though
// JSON.parse rounds it to one. Done on the digits, so nothing is rounded.

/** More digits than any int64 or safe integer has: further detail cannot matter. */
const MAX_DIGITS = 40;

/** The integer's digits, or why there is none (`string & {}` keeps the two words visible). */
export type IntegerOfNumber = (string & {}) | 'fraction' | 'too-large';

/**
 * The canonical decimal text of the integer a valid JSON number token
 * denotes ("-0" gives "0"); 'fraction' if it is not whole; 'too-large' if it
 * has more than 40 digits.
 */
export function integerOfNumber(token: string): IntegerOfNumber {
  const negative = token.charCodeAt(0) === 45;
  let at = negative ? 1 : 0;
  let exponent = 0;
  const length = token.length;
  while (at < length && isDigit(token.charCodeAt(at))) at++;
  let digits = token.slice(negative ? 1 : 0, at);
  if (token[at] === '.') {
    const from = ++at;
    while (at < length && isDigit(token.charCodeAt(at))) at++;
    digits += token.slice(from, at);
    exponent -= at - from;
  }
  if (token[at] === 'e' || token[at] === 'E') {
    // A huge exponent parses to a huge double (or Infinity): the checks below still hold.
    exponent += Number(token.slice(at + 1));
  }
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 48) first++;
  let last = digits.length;
  while (last > first && digits.charCodeAt(last - 1) === 48) {
    last--;
    exponent++;
  }
  if (first === last) return '0';
  if (exponent < 0) return 'fraction';
  if (last - first + exponent > MAX_DIGITS) return 'too-large';
  return `${negative ? '-' : ''}${digits.slice(first, last)}${'0'.repeat(exponent)}`;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
