/** The OAuth client form's fields, read as the server will: one redirect URI per line, whole. */
export type ClientInput =
  { ok: true; name: string; redirectUris: string[] } | { ok: false; field: 'name' | 'uris'; message: string };

/** The server's limit. */
export const MAX_REDIRECT_URIS = 10;

/**
 * Checks the form before it is sent, and says which field is wrong: a line that is not an address is
 * quoted whole ("not a url", never just its first word), and only its field is marked.
 */
export function parseClientInput(name: string, urisText: string): ClientInput {
  if (!name.trim()) return { ok: false, field: 'name', message: 'Give the client a name.' };
  const lines = urisText
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return { ok: false, field: 'uris', message: 'Give at least one redirect URI.' };
  if (lines.length > MAX_REDIRECT_URIS)
    return { ok: false, field: 'uris', message: `At most ${MAX_REDIRECT_URIS} redirect URIs, one per line.` };
  for (const line of lines) {
    let url: URL | null = null;
    try {
      url = /\s/.test(line) ? null : new URL(line);
    } catch {
      url = null;
    }
    if (!url?.host)
      return {
        ok: false,
        field: 'uris',
        message: `"${line}" is not an address: each line is one whole redirect URI, such as https://app.example.com/callback.`,
      };
  }
  return { ok: true, name: name.trim(), redirectUris: lines };
}
