/**
 * Decides whether an uploaded file's content can be parsed as its type, the way the provider's
 * processing would: empty files and content that does not match the extension fail.
 */

/** Extensions the provider's knowledge base accepts, with the mime type each is stored under. */
export const SUPPORTED_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.log': 'text/plain',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/x-yaml',
  '.yml': 'application/x-yaml',
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/** Why the content cannot be processed, or null when it parses as its type. */
export function contentProblem(name: string, bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'the file is empty';
  const ext = extensionOf(name);
  switch (ext) {
    case '.pdf':
      return startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]) ? null : 'not a PDF (no %PDF- header)';
    case '.docx':
      return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ? null : 'not a .docx (not a zip package)';
    case '.doc':
      return startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
        ? null
        : 'not a Word .doc file';
    default: {
      const text = asText(bytes);
      if (text === null) return 'not UTF-8 text';
      if (!text.trim()) return 'the file has no text';
      if (ext === '.json') {
        try {
          JSON.parse(text);
        } catch {
          return 'not valid JSON';
        }
      }
      if (ext === '.xml' && !text.trimStart().startsWith('<')) return 'not XML';
      return null;
    }
  }
}
