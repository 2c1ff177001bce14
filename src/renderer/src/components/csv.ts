// The one way the app writes CSV (RFC 4180: CRLF line ends, a field quoted
// when it holds a comma, a quote, a line break or an edge space, inner
// quotes doubled), made safe and exact for spreadsheet programs:
// - text that starts with =, +, -, @ (or a tab or carriage return) would be
//   run as a formula when the file is opened: it gets a leading apostrophe,
//   so it reads as the text it is (OWASP's advice for CSV injection);
// - an order or pet id is written as ="…", the one formula the app writes
//   itself (its content is an int64's digits, checked here), so a
//   spreadsheet keeps it as text: as a number, ids past 15 digits would lose
//   their last digits and ids with a minus would be neutralised.
// Numbers the app computed (counts, quantities) are written as numbers.

export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
const FORMULA_START = /^[=+\-@\t\r]/;
const INT64_TEXT = /^-?\d{1,19}$/;

function quoted(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One field. Text that could start a formula is neutralised; a number or a
 * boolean is written as it is; nothing (undefined) is an empty field.
 */
export function csvCell(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return quoted(FORMULA_START.test(value) ? `'${value}` : value);
}

/** An id (decimal int64 text) that a spreadsheet keeps exactly as written. */
export function csvId(id: string | undefined): string {
  if (id === undefined) return '';
  // Anything else is not an id: written as (neutralised) text, never inside a formula.
  if (!INT64_TEXT.test(id)) return csvCell(id);
  return quoted(`="${id}"`);
}

/** One line of fields already written with csvCell or csvId, with its line end. */
export function csvLine(fields: readonly string[]): string {
  return fields.join(',') + CSV_LINE_END;
}

/** The header line: column names, as text. */
export function csvHeader(names: readonly string[]): string {
  return csvLine(names.map(csvCell));
}
