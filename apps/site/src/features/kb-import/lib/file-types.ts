import { extensionOf, FILE_TYPES } from '@engage/vapi-contract';

export { extensionOf };

/** The provider's supported extensions, with the mime type each file is sent with. */
export const MIME_TYPES = FILE_TYPES;

export const ALLOWED_EXTENSIONS: readonly string[] = Object.keys(MIME_TYPES);

export function isAllowedFile(name: string): boolean {
  return Object.hasOwn(MIME_TYPES, extensionOf(name));
}

/** The mime type assigned by the extension; application/octet-stream for anything else. */
export function mimeTypeFor(name: string): string {
  return MIME_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}

/** The value of the file input's accept attribute. */
export const ACCEPT_ATTRIBUTE = ALLOWED_EXTENSIONS.join(',');
