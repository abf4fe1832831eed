// Where a link may send the browser (only this site) and the PKCE parameters a link remembers.
import { authErrors } from './errors.js';

// The names a loopback listener answers to; public-origin.ts calls it `localhost`, while a browser
// may have opened the site as 127.0.0.1 or [::1].
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function sameSite(site: URL, url: URL): boolean {
  if (url.origin === site.origin) return true;
  return (
    LOOPBACK_NAMES.has(site.hostname) &&
    LOOPBACK_NAMES.has(url.hostname) &&
    url.protocol === site.protocol &&
    url.port === site.port
  );
}

/**
 * The one place a redirect target is chosen: only this site's own origin is allowed, anything else
 * falls back to the site's root (no open redirect through a crafted link).
 */
export function safeRedirect(siteUrl: string, requested: string | undefined | null): string {
  const site = new URL(siteUrl);
  if (requested) {
    try {
      const url = new URL(requested, site);
      if (sameSite(site, url)) return url.toString();
    } catch {
      // not a URL: fall through to the site root
    }
  }
  return new URL('/', site).toString();
}

export interface Pkce {
  challenge: string;
  method: 's256' | 'plain';
}

/** GoTrue's prefix on a link token issued in the PKCE flow. */
export const PKCE_PREFIX = 'pkce_';

/** Validates PKCE parameters (GoTrue's rules); null when the request uses the implicit flow. */
export function parsePkce(
  challenge: string | null | undefined,
  method: string | null | undefined,
): Pkce | null {
  if (!challenge && !method) return null;
  if (!challenge || !method)
    throw authErrors.validation('PKCE flow requires code_challenge and code_challenge_method');
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge))
    throw authErrors.validation('code challenge has to be between 43 and 128 characters of [A-Za-z0-9-._~]');
  const m = method.toLowerCase();
  if (m !== 's256' && m !== 'plain')
    throw authErrors.validation(`code challenge method "${method}" is not supported`);
  return { challenge, method: m };
}
