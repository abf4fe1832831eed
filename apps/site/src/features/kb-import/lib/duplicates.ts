import { MAX_FILE_BYTES } from './constants';
import { isAllowedFile } from './file-types';

export interface NameAndSize {
  name: string;
  size: number;
}

export interface SkippedFile {
  name: string;
  reason: string;
}

export interface SelectionResult<T extends NameAndSize> {
  accepted: T[];
  skipped: SkippedFile[];
}

export const UNSUPPORTED_REASON = '(unsupported format)';
/** An empty file has nothing to import and the provider fails it: refused when chosen. */
export const EMPTY_REASON = '(empty file)';
/** Over the provider's size limit: refused when chosen, as sending it could only fail. */
export const TOO_LARGE_REASON = '(larger than 10 MB)';
/** Whether the provider would take a file of this size. */
export const fitsSizeLimit = (size: number) => size > 0 && size <= MAX_FILE_BYTES;
export const duplicateReason = (providerName: string) => `(duplicate - already exists in ${providerName})`;

const keyOf = (name: string, size: number) => `${size}\u0000${name}`;

/**
 * Splits newly chosen files into those to add and those skipped: a file with an extension
 * outside the allow-list is unsupported; an empty one, or one over 10 MB, is refused; one with the same name and size as a provider file, an
 * uploaded file, an already selected file or an earlier file of the same choice is a duplicate.
 */
export function screenSelection<T extends NameAndSize>(
  chosen: readonly T[],
  existing: {
    providerFiles: readonly { name: string; bytes: number }[];
    uploaded: readonly { name: string; bytes: number }[];
    selected: readonly NameAndSize[];
  },
  providerName: string,
): SelectionResult<T> {
  const known = new Set<string>();
  for (const f of existing.providerFiles) known.add(keyOf(f.name, f.bytes));
  for (const f of existing.uploaded) known.add(keyOf(f.name, f.bytes));
  for (const f of existing.selected) known.add(keyOf(f.name, f.size));
  const accepted: T[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of chosen) {
    if (!isAllowedFile(file.name)) {
      skipped.push({ name: file.name, reason: UNSUPPORTED_REASON });
      continue;
    }
    if (file.size === 0) {
      skipped.push({ name: file.name, reason: EMPTY_REASON });
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      skipped.push({ name: file.name, reason: TOO_LARGE_REASON });
      continue;
    }
    const key = keyOf(file.name, file.size);
    if (known.has(key)) {
      skipped.push({ name: file.name, reason: duplicateReason(providerName) });
      continue;
    }
    known.add(key);
    accepted.push(file);
  }
  return { accepted, skipped };
}
