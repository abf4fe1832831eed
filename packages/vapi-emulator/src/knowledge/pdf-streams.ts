/**
 * Measures every stream of a PDF before pdf.js reads it: each stream's filters are decoded with a
 * cap (Flate, LZW and run-length are what a bomb uses; the ASCII encodings are undone to reach
 * them), and each stream and the file's total are held to the inflation limits (inflate.ts). A
 * stream is found as pdf.js finds one: a dictionary followed by the `stream` keyword, its data
 * /Length long when `endstream` follows there, else up to the next `endstream`. Encrypted PDFs are
 * refused: their streams cannot be measured without decrypting them.
 * @module
 */
import { DocumentProblem, inflateCapped, type InflationBudget } from './inflate.js';
import { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode } from './pdf-filters.js';

const STREAM = />>(?:\s|%[^\r\n]*)*stream(?:\r\n|\r|\n)?/g;
const ABBREVIATIONS: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
};
/** Streams measured in one file: more and the file is refused (each costs a decoder). */
export const MAX_PDF_STREAMS = 50_000;
/** How far before its `stream` keyword a stream's dictionary is read. */
const DICTIONARY_WINDOW = 16 * 1024;

/** Filters that only image decoders run: pdf.js never decodes them to read text. */
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode']);

/** The filter names of a stream's dictionary, in order. */
function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary);
  return (match?.[1]!.match(/\/[^\s/[\]<>()]+/g) ?? []).map((n) => ABBREVIATIONS[n.slice(1)] ?? n.slice(1));
}

/** The stream's data as pdf.js takes it: /Length bytes when `endstream` follows them. */
function streamData(text: string, dictionary: string, start: number): [number, number] {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (length) {
    const end = start + Number(length[1]);
    if (end <= text.length && /^\s*endstream/.test(text.slice(end, end + 32))) return [start, end];
  }
  const end = text.indexOf('endstream', start);
  return [start, end < 0 ? text.length : end];
}

async function decode(filter: string, data: Uint8Array, cap: number, dictionary: string) {
  switch (filter) {
    case 'FlateDecode':
      return inflateCapped(data, cap, false);
    case 'LZWDecode':
      return lzwDecode(data, cap, /\/EarlyChange\s+0/.test(dictionary) ? 0 : 1);
    case 'RunLengthDecode':
      return runLengthDecode(data, cap);
    case 'ASCIIHexDecode':
      return asciiHexDecode(data);
    case 'ASCII85Decode':
      return ascii85Decode(data, cap);
    default:
      return undefined;
  }
}

/** The last of the sorted positions before `at`, or 0. */
function lastBefore(positions: readonly number[], at: number): number {
  let [low, high] = [0, positions.length - 1];
  let found = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (positions[mid]! < at) [found, low] = [positions[mid]!, mid + 1];
    else high = mid - 1;
  }
  return found;
}

/** Throws DocumentProblem when a stream, or all of them, decode past the budget's limits. */
export async function checkPdfStreams(bytes: Uint8Array, budget: InflationBudget): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (/\/Encrypt\b/.test(text)) throw new DocumentProblem('the PDF is encrypted');
  // Where each object starts, found once: a stream's dictionary begins at the last one before it.
  const objects = [...text.matchAll(/\sobj\b/g)].map((m) => m.index);
  let count = 0;
  for (const match of text.matchAll(STREAM)) {
    if (++count > MAX_PDF_STREAMS)
      throw new DocumentProblem(`the PDF has more than ${MAX_PDF_STREAMS} streams`);
    const from = Math.max(lastBefore(objects, match.index), match.index - DICTIONARY_WINDOW);
    const dictionary = text.slice(from, match.index + 2);
    const [start, end] = streamData(text, dictionary, match.index + match[0].length);
    const raw = bytes.subarray(start, end);
    let data: Uint8Array = raw;
    let grew = false;
    for (const filter of filtersOf(dictionary)) {
      if (IMAGE_FILTERS.has(filter)) break;
      const decoded = await decode(filter, data, budget.remaining, dictionary);
      if (decoded === undefined) break;
      const part = `a stream (${filter})`;
      if (decoded === null) budget.check(part, raw.length, budget.remaining + 1);
      data = decoded!;
      grew ||= filter === 'FlateDecode' || filter === 'LZWDecode' || filter === 'RunLengthDecode';
    }
    if (grew) budget.take('a stream', raw.length, data.length);
  }
}
