/**
 * The text of an uploaded file, for the local assistant's index: text types decoded (see
 * text-formats.ts), PDF through unpdf (pdf.js), DOCX through mammoth. Runs in the extraction worker
 * (document-worker.ts), never on a request's path: a .docx is read from its checked members only
 * (zip.ts) and a PDF's streams are measured first (pdf-streams.ts), within the limits below.
 * @module
 */
import { extensionOf } from '@engage/vapi-contract';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import {
  DEFAULT_INFLATION_LIMITS,
  DocumentProblem,
  InflationBudget,
  type InflationLimits,
} from './inflate.js';
import { checkPdfStreams } from './pdf-streams.js';
import { jsonText, tableText, xmlText } from './text-formats.js';
import { readZip, storedZip } from './zip.js';

export interface ExtractLimits extends InflationLimits {
  /** Text kept from one file, in characters (passages are cut from it, see passages.ts). */
  maxTextChars: number;
  /** PDF pages read from one file; later pages are left out. */
  maxPdfPages: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  ...DEFAULT_INFLATION_LIMITS,
  maxTextChars: 500_000,
  maxPdfPages: 200,
};

/** The extensions the index reads (.doc, binary Word, has no maintained parser: it is skipped). */
export const INDEXED_EXTENSIONS = [
  '.txt',
  '.md',
  '.csv',
  '.tsv',
  '.log',
  '.json',
  '.yaml',
  '.yml',
  '.xml',
  '.pdf',
  '.docx',
] as const;

async function pdfText(bytes: Uint8Array, limits: ExtractLimits): Promise<string> {
  await checkPdfStreams(bytes, new InflationBudget(limits));
  // pdf.js takes the buffer over: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, limits.maxPdfPages) && chars < limits.maxTextChars; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const page = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('');
      pages.push(page);
      chars += page.length + 2;
    }
    return pages.join('\n\n');
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function docxText(bytes: Uint8Array, limits: ExtractLimits): Promise<string> {
  const members = await readZip(bytes, new InflationBudget(limits));
  const buffer = Buffer.from(storedZip(members));
  return (await mammoth.extractRawText({ buffer })).value;
}

/** Runs a parser, turning its failure into the reason the file is not indexed. */
async function parsed<T>(what: string, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof DocumentProblem) throw error;
    throw new DocumentProblem(`${what} could not be read`);
  }
}

/**
 * The text of a file by its name's extension (at most maxTextChars), or null when its type is not
 * indexed. Throws DocumentProblem, saying why, when the file does not parse or is past a limit.
 */
export async function extractText(
  name: string,
  bytes: Uint8Array,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<string | null> {
  const ext = extensionOf(name);
  let text: string;
  if (ext === '.pdf') text = await parsed('the PDF', () => pdfText(bytes, limits));
  else if (ext === '.docx') text = await parsed('the Word document', () => docxText(bytes, limits));
  else if ((INDEXED_EXTENSIONS as readonly string[]).includes(ext)) {
    // Read no more than the text kept (with room for the labels added to rows); JSON is read
    // whole, as a cut document would not parse (uploads are capped, 10 MiB by default).
    const raw = new TextDecoder('utf-8')
      .decode(ext === '.json' ? bytes : bytes.subarray(0, limits.maxTextChars * 4))
      .replace(/^\uFEFF/, '');
    if (ext === '.csv') text = tableText(raw, ',');
    else if (ext === '.tsv') text = tableText(raw, '\t');
    else if (ext === '.json')
      text = await parsed('the JSON', async () => jsonText(JSON.parse(raw)).join('\n\n'));
    else if (ext === '.xml') text = xmlText(raw);
    else text = raw;
  } else return null;
  return text.length > limits.maxTextChars ? text.slice(0, limits.maxTextChars) : text;
}
