import type { Conversation } from '@engage/http-contract/conversations';

/**
 * The CSV export of the conversations shown. A cell a spreadsheet would read as a formula (one
 * starting with = + - @, a tab or a carriage return) gets a leading apostrophe, so a visitor's
 * message can never run in the owner's spreadsheet (OWASP "CSV injection"). Pure.
 * @module
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula starts neutralised, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(',');

const ROLE_NAMES = { visitor: 'Visitor', assistant: 'Assistant', system: 'System', tool: 'Tool' } as const;

export const CSV_HEADER = [
  'Started',
  'Kind',
  'Assistant',
  'Duration (s)',
  'First question',
  'Transcript',
  'Ids',
] as const;

/** The file: a header and one row per conversation, lines ending CRLF (RFC 4180). */
export function conversationsCsv(
  conversations: readonly Conversation[],
  assistantName: (id: string | null) => string,
): string {
  const rows = conversations.map((c) =>
    csvRow([
      new Date(c.startedAt).toISOString(),
      c.kind === 'voice' ? 'Voice' : 'Chat',
      assistantName(c.assistantId),
      c.durationSeconds,
      c.firstQuestion,
      c.lines.map((l) => `${ROLE_NAMES[l.role]}: ${l.text}`).join('\n'),
      c.ids.join(' '),
    ]),
  );
  return `${[csvRow(CSV_HEADER), ...rows].join('\r\n')}\r\n`;
}
