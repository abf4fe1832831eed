import type { Conversation } from '@engage/http-contract/conversations';
import { csvRow } from '@engage/http-contract/csv';

/**
 * The CSV export of the conversations shown, its cells written by the one csvCell
 * (@engage/http-contract/csv: formulas defused, so a visitor's message can never run in the
 * owner's spreadsheet). Pure.
 * @module
 */

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
