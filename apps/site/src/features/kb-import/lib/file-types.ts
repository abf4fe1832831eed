/** The provider's supported extensions (SPEC §5), with the mime type each file is sent with. */
export const MIME_TYPES: Readonly<Record<string, string>> = {
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

export const ALLOWED_EXTENSIONS: readonly string[] = Object.keys(MIME_TYPES);

/** The lower-case extension with its dot ('.md'), or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  return name.slice(dot).toLowerCase();
}

export function isAllowedFile(name: string): boolean {
  return Object.hasOwn(MIME_TYPES, extensionOf(name));
}

/** The mime type assigned by the extension; application/octet-stream for anything else. */
export function mimeTypeFor(name: string): string {
  return MIME_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}

/** The value of the file input's accept attribute. */
export const ACCEPT_ATTRIBUTE = ALLOWED_EXTENSIONS.join(',');
