import { extensionOf } from './file-types';

/** Text files larger than this are not read for a content check (the provider's word stands). */
export const CONTENT_CHECK_MAX_BYTES = 10 * 1024 * 1024;

/** The bytes of a Blob (jsdom's Blob has no arrayBuffer(), so FileReader is the fallback). */
export function readBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(blob);
  });
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

/**
 * Why content cannot be processed as its type, or null when it looks fine: the checks a provider's
 * parser makes (an empty file, a PDF without its header, JSON that does not parse…). Used to say why
 * the provider failed a file, since its file object carries no reason.
 */
export function bytesProblem(name: string, bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'empty file';
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
  }
}

/** `bytesProblem` of a file; null when it cannot be read or is too large to check. */
export async function contentProblem(file: File): Promise<string | null> {
  if (file.size === 0) return 'empty file';
  const binary = ['.pdf', '.docx', '.doc'].includes(extensionOf(file.name));
  if (!binary && file.size > CONTENT_CHECK_MAX_BYTES) return null;
  try {
    return bytesProblem(file.name, await readBytes(binary ? file.slice(0, 8) : file));
  } catch {
    return null;
  }
}

/** True when both files hold the same bytes. */
export async function sameContent(a: Blob, b: Blob): Promise<boolean> {
  if (a.size !== b.size) return false;
  if (a === b) return true;
  try {
    const [x, y] = await Promise.all([readBytes(a), readBytes(b)]);
    return x.every((v, i) => v === y[i]);
  } catch {
    return false;
  }
}
