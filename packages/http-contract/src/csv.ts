/**
 * CSV cells, as both exports write them (the admin's users, the owner's conversations): RFC 4180
 * quoting, and a cell a spreadsheet would run as a formula (one starting with = + - @, a tab or a
 * carriage return) gets a leading apostrophe, so a value a visitor chose can never run in the
 * reader's spreadsheet (OWASP's "CSV injection"). Pure.
 * @module
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula starts neutralised, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row of cells, without its line ending. */
export const csvRow = (cells: readonly (string | number | null)[]): string => cells.map(csvCell).join(',');
