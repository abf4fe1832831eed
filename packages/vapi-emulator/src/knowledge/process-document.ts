/**
 * One uploaded file made ready for the local assistant: its text extracted (extract.ts) and cut
 * into passages (passages.ts), or the reason it cannot be. What the extraction worker runs; the
 * outcome is stored with the file, and visitors' questions read only that.
 * @module
 */
import { DEFAULT_EXTRACT_LIMITS, extractText, type ExtractLimits } from './extract.js';
import { DocumentProblem } from './inflate.js';
import { DEFAULT_PASSAGE_LIMITS, splitPassages, type Passage, type PassageLimits } from './passages.js';

export interface DocumentLimits extends ExtractLimits, PassageLimits {}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  ...DEFAULT_EXTRACT_LIMITS,
  ...DEFAULT_PASSAGE_LIMITS,
};

export type DocumentOutcome = { ok: true; passages: Passage[] } | { ok: false; reason: string };

export async function processDocument(
  name: string,
  bytes: Uint8Array,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<DocumentOutcome> {
  try {
    const text = await extractText(name, bytes, limits);
    return { ok: true, passages: text === null ? [] : splitPassages(text, limits) };
  } catch (error) {
    if (error instanceof DocumentProblem) return { ok: false, reason: error.message };
    throw error;
  }
}
