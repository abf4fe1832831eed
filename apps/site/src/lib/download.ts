/**
 * Saves a blob as a file through the browser's own download, named `<stem>-<YYYY-MM-DD>.csv` style
 * by the caller. The object URL is revoked once the click has handed the blob over.
 */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the URL can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A dated file name for an export: `users-2026-11-28.csv`. */
export const datedFileName = (stem: string, extension: string, now = new Date()): string =>
  `${stem}-${now.toISOString().slice(0, 10)}.${extension}`;
