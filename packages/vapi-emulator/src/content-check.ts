import { extensionOf, FILE_TYPES } from '@engage/vapi-contract';

/** The extensions the emulated provider stores, with their mime types: the, and .yml beside .yaml. */
export const SUPPORTED_TYPES: Readonly<Record<string, string>> = {
  ...FILE_TYPES,
  '.yml': 'application/x-yaml',
};

const ALLOWED_TYPES = new Set(Object.values(SUPPORTED_TYPES));

/**
 * The Content-Type a stored file is served with: its recorded type when it is one of the provider's
 * allowed types, else the type of its extension, else an opaque one. Never what an uploader chose
 * outside that list (a `text/javascript` upload would be a script of this origin).
 */
export function servedType(recorded: string, name: string): string {
  if (ALLOWED_TYPES.has(recorded)) return recorded;
  return SUPPORTED_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}
