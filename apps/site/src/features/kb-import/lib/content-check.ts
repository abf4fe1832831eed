import { contentProblem as contentProblemOf, isBinaryType, SIGNATURE_BYTES } from '@engage/vapi-contract';

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

/** Why the provider's parser would refuse these bytes (shared with the emulator). */
export const bytesProblem = contentProblemOf;

/** `bytesProblem` of a file; null when it cannot be read or is too large to check. */
export async function contentProblem(file: File): Promise<string | null> {
  if (file.size === 0) return 'empty file';
  const binary = isBinaryType(file.name);
  if (!binary && file.size > CONTENT_CHECK_MAX_BYTES) return null;
  try {
    return bytesProblem(file.name, await readBytes(binary ? file.slice(0, SIGNATURE_BYTES) : file));
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
