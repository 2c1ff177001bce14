// The one CSV module: RFC 4180 quoting, text that could start a formula
// neutralised, and ids a spreadsheet keeps exactly. A small model of how a
// spreadsheet program reads a cell (a formula runs, a number becomes a double)
// shows what opening the file would give.

import { expect, test } from 'vitest';
import { csvCell, csvHeader, csvId, csvLine } from '../../../src/renderer/src/components/csv.ts';

/** Splits CSV text into rows of fields, as RFC 4180 says (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

type SheetValue =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'formula'; source: string };

/**
 * How Excel, LibreOffice and Sheets take a cell: a leading = + - @ starts a
 * formula (only ="literal" is harmless: its value is the text), a numeric
 * looking cell becomes a double, anything else stays text.
 */
function spreadsheetReads(cell: string): SheetValue {
  const literal = /^="((?:[^"]|"")*)"$/.exec(cell);
  if (literal) return { kind: 'text', value: literal[1]!.replaceAll('""', '"') };
  if (/^[=+\-@\t\r]/.test(cell) && !/^[-+]?\d+(\.\d+)?$/.test(cell)) {
    return { kind: 'formula', source: cell };
  }
  if (/^[-+]?\d+(\.\d+)?$/.test(cell)) return { kind: 'number', value: Number(cell) };
  return { kind: 'text', value: cell };
}

test('a field is quoted only when it must be, inner quotes doubled', () => {
  expect(csvCell('plain')).toBe('plain');
  expect(csvCell(42)).toBe('42');
  expect(csvCell(true)).toBe('true');
  expect(csvCell(undefined)).toBe('');
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('two\nlines')).toBe('"two\nlines"');
  expect(csvCell(' padded ')).toBe('" padded "');
  expect(csvLine(['a', '"b,c"'])).toBe('a,"b,c"\r\n');
  expect(csvHeader(['Order ID', 'Note, local'])).toBe('Order ID,"Note, local"\r\n');
});

test('text starting with =, +, -, @ (or a tab or CR) is neutralised with an apostrophe', () => {
  expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  expect(csvCell('+1')).toBe("'+1");
  expect(csvCell('-2+3')).toBe("'-2+3");
  expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  expect(csvCell('\tx')).toBe("'\tx");
  expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  expect(csvCell('fine = ok')).toBe('fine = ok');
  // Numbers the app computed are numbers, not text to neutralise.
  expect(csvCell(-3)).toBe('-3');
});

test('ids stay exact when a spreadsheet opens the file, past 2^53 and negative too', () => {
  const ids = ['1', '9007199254740993', '9223372036854775807', '-9223372036854775808', '-5', '0'];
  const text = csvHeader(['Order ID']) + ids.map((id) => csvLine([csvId(id)])).join('');
  const read = parseCsv(text)
    .slice(1)
    .map((row) => spreadsheetReads(row[0]!));
  expect(read).toEqual(ids.map((value) => ({ kind: 'text', value })));
  // Written as a plain number, the same ids would not survive.
  expect(spreadsheetReads('9007199254740993')).toEqual({
    kind: 'number',
    value: 9007199254740992,
  });
  expect(csvId(undefined)).toBe('');
});

test('something that is not an id is never put inside the id formula', () => {
  expect(csvId('12"),HYPERLINK("x')).toBe(`"12""),HYPERLINK(""x"`);
  expect(csvId('=1+1')).toBe("'=1+1");
  // Too long for an int64: plain text.
  expect(csvId('12345678901234567890')).toBe('12345678901234567890');
});

test('no free text becomes a formula: it reads as text, behind the apostrophe where it needed one', () => {
  const notes = ['=1+1', '+cmd|/C calc', '-2-2', '@A1', 'plain, with "quotes"', '\t=tab'];
  const text = notes.map((note) => csvLine([csvId('42'), csvCell(note), csvCell(7)])).join('');
  for (const [index, row] of parseCsv(text).entries()) {
    const [id, note, quantity] = row.map(spreadsheetReads);
    expect(id).toEqual({ kind: 'text', value: '42' });
    const written = notes[index]!;
    expect(note).toEqual({
      kind: 'text',
      value: /^[=+\-@\t]/.test(written) ? `'${written}` : written,
    });
    expect(quantity).toEqual({ kind: 'number', value: 7 });
  }
});
