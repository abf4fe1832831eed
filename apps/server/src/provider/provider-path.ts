/**
 * The path rules of the provider proxy: what a path sent upstream with the server's key may hold,
 * read from the raw request text and after decoding (provider/proxy.ts decides on them).
 * @module
 */

export const BAD_PATH_MESSAGE =
  'The path must not hold backslashes, encoded slashes or backslashes, double encoding or dot segments.';

/** The path text exactly as the request line carried it: no decoding, no dot-segment resolution. */
export function rawPathOf(url: string): string {
  const afterAuthority = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = afterAuthority ? url.slice(afterAuthority[0].length) : url;
  return rest.replace(/[?#].*$/s, '') || '/';
}

/** The query text as received (with its '?'), or ''. */
export function rawSearchOf(url: string): string {
  const match = /\?[^#]*/.exec(url);
  return match ? match[0] : '';
}

/** Text that never belongs in a path sent with the server's key, raw or decoded. */
// Control characters are refused on purpose (a CR/LF or NUL in an id is never legitimate).
// eslint-disable-next-line no-control-regex
export const BAD_RAW = /\\|%(2f|5c|25)|[\x00-\x1f\x7f]/i;
// eslint-disable-next-line no-control-regex
const BAD_DECODED = /[\\/%\x00-\x1f\x7f]/;
export const isDotSegment = (segment: string) => /^(\.|%2e){1,2}$/i.test(segment);

/**
 * The provider path's segments (after the mount's `mountDepth` segments), each decoded once, or null
 * when the path is refused: a backslash, an encoded '/' or '\' (any case), double encoding ('%25'),
 * a control character or a dot segment, in the raw text or after decoding. Upstream resolves all of
 * those into other paths ('\' is '/' to URL parsers, '..' climbs), so none may reach it.
 */
export function providerPathSegments(rawPath: string, mountDepth: number): string[] | null {
  if (BAD_RAW.test(rawPath)) return null;
  const raw = rawPath.split('/').slice(1);
  if (raw.length < mountDepth) return null;
  const segments: string[] = [];
  for (const segment of raw.slice(mountDepth)) {
    if (isDotSegment(segment)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (BAD_DECODED.test(decoded) || isDotSegment(decoded)) return null;
    segments.push(decoded);
  }
  return segments;
}
