/**
 * The one size display: bytes under 1024 as B, then KB, then MB, with one decimal.
 * Here because both apps show sizes (the site's import tool and backup card, the server's backup
 * commands) and this is the one package both may import; it is pure and pulls in nothing.
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
