/**
 * Splits a document's text into passages the local assistant can quote: paragraphs (blocks between
 * blank lines), long ones cut at sentence ends, each carrying the heading of its section (indexed,
 * not quoted). Pure.
 * @module
 */

export interface Passage {
  /** What is quoted: one paragraph or part of one, white space folded. */
  text: string;
  /** The section's heading (Markdown `#` or a short title line), searched with the text. */
  heading?: string;
}

export interface PassageLimits {
  /** Longest passage quoted, in characters (not the text read from a file: see extract.ts). */
  maxPassageChars: number;
  /** Passages kept from one document; the rest are dropped. */
  maxPassages: number;
}

export const DEFAULT_PASSAGE_LIMITS: PassageLimits = { maxPassageChars: 400, maxPassages: 2_000 };

const MARKDOWN_HEADING = /^#{1,6}\s+(.+?)\s*#*$/;

/** A single short line with no sentence punctuation, followed by more text: a title. */
const isTitle = (block: string, next: string | undefined) =>
  next !== undefined &&
  !block.includes('\n') &&
  block.length <= 60 &&
  !/[.!?;:,]$/.test(block) &&
  !block.includes(':') &&
  /\p{L}/u.test(block) &&
  next.length > block.length;

/** Markdown's inline marks removed: [text](url) → text, **bold** → bold, `code` → code. */
function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '• ')
    .replace(/^\s*>\s?/gm, '');
}

const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Cuts a paragraph into pieces of at most `max` characters, at sentence ends, else at spaces. */
export function cut(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const sentences = paragraph.split(/(?<=[.!?])\s+/);
  const out: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (!current) current = piece;
    else if (current.length + 1 + piece.length <= max) current += ` ${piece}`;
    else {
      out.push(current);
      current = piece;
    }
  };
  for (const sentence of sentences) {
    if (sentence.length <= max) {
      push(sentence);
      continue;
    }
    // A sentence longer than a passage: cut at the last space that fits.
    let rest = sentence;
    while (rest.length > max) {
      const at = rest.lastIndexOf(' ', max);
      const end = at > max / 2 ? at : max;
      push(rest.slice(0, end).trim());
      rest = rest.slice(end).trim();
    }
    if (rest) push(rest);
  }
  if (current) out.push(current);
  return out;
}

/** The passages of a document's text, in order. */
export function splitPassages(text: string, limits: PassageLimits = DEFAULT_PASSAGE_LIMITS): Passage[] {
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .replace(/^```.*$/gm, '')
    .split(/\n[ \t]*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  const out: Passage[] = [];
  let heading: string | undefined;
  for (let i = 0; i < blocks.length && out.length < limits.maxPassages; i++) {
    const block = blocks[i]!;
    const lines = block.split('\n');
    // A heading may open the block itself ("# Refunds\nRefunds are paid…").
    const md = MARKDOWN_HEADING.exec(lines[0]!.trim());
    if (md) {
      heading = fold(plainInline(md[1]!));
      lines.shift();
      if (!lines.join('').trim()) continue;
    } else if (isTitle(block, blocks[i + 1])) {
      heading = block;
      continue;
    }
    const paragraph = fold(plainInline(lines.join('\n')));
    if (!/[\p{L}\p{N}]/u.test(paragraph)) continue;
    for (const piece of cut(paragraph, limits.maxPassageChars)) {
      if (out.length >= limits.maxPassages) break;
      out.push(heading ? { text: piece, heading } : { text: piece });
    }
  }
  return out;
}
