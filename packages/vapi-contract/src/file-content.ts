/**
 * What the provider's knowledge-base processing accepts: the file types and the checks
 * its parsers make on their content. The emulator fails files with these reasons; the import tool
 * uses the same checks to say why the provider failed a file (its file object carries no reason).
 * @module
 */

/** The supported extensions, with the mime type each file is sent and stored with. */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.doc': 'application/msword',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.tsv': 'text/tab-separated-values',
  '.yaml': 'application/x-yaml',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.log': 'text/plain',
};

/** The lower-case extension with its dot ('.md'), or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  return name.slice(dot).toLowerCase();
}

/** Binary types are recognised by their first bytes; this many are enough for every signature. */
export const SIGNATURE_BYTES = 8;

const BINARY_SIGNATURES: Readonly<Record<string, { magic: readonly number[]; problem: string }>> = {
  '.pdf': { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], problem: 'not a PDF (no %PDF- header)' },
  '.docx': { magic: [0x50, 0x4b, 0x03, 0x04], problem: 'not a .docx (not a zip package)' },
  '.doc': { magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], problem: 'not a Word .doc file' },
};

/** True for types checked by signature only, whose text is not read. */
export const isBinaryType = (name: string): boolean => Object.hasOwn(BINARY_SIGNATURES, extensionOf(name));

function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/**
 * Why content cannot be processed as its type, or null when it looks fine: an empty file, a PDF
 * without its header, text that is not UTF-8, JSON that does not parse…
 */
export function contentProblem(name: string, bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'empty file';
  const ext = extensionOf(name);
  const signature = BINARY_SIGNATURES[ext];
  if (signature) return signature.magic.every((b, i) => bytes[i] === b) ? null : signature.problem;
  const text = asText(bytes);
  if (text === null) return 'not UTF-8 text';
  if (!text.trim()) return 'no text in the file';
  if (ext === '.json') {
    try {
      JSON.parse(text);
    } catch {
      return 'not valid JSON';
    }
  }
  if (ext === '.xml' && !text.trimStart().startsWith('<')) return 'not valid XML';
  return null;
}
