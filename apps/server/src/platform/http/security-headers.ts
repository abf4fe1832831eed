import type { MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * CSP sources ('sha256-…') of the inline scripts of the page this response carries, set by the
     * route that serves it (site/static-site.ts, site/page-fill.ts): allowed on that response only.
     */
    cspScriptHashes: string[];
  }
}

export interface CspSources {
  /** Extra origins the browser may call with fetch/WebSocket (hosted auth, real provider). */
  connect: string[];
}

// Daily's call library loads its call engine from c.daily.co and talks to its servers; the
// real-call path of the voice SDK needs exactly these, the offline path needs none.
const DAILY = {
  script: ['https://c.daily.co'],
  connect: ['https://*.daily.co', 'wss://*.daily.co', 'https://*.wss.daily.co', 'wss://*.wss.daily.co'],
};

/**
 * Builds the Content-Security-Policy: only the origins the product needs, and no inline script but
 * those whose hashes are given (never 'unsafe-inline').
 */
export function buildCsp({ connect }: CspSources, scriptHashes: readonly string[] = []): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // blob: only for the voice SDK's microphone AudioWorklet, which it loads from a Blob URL it builds
    // itself (Chromium checks worklet modules against script-src, not worker-src).
    'script-src': ["'self'", 'blob:', ...DAILY.script, ...scriptHashes],
    // Radix and sonner set style attributes and inject small style elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'blob:', 'mediastream:'],
    'connect-src': ["'self'", ...connect, ...DAILY.connect],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ["'self'", 'https://*.daily.co'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`)
    .join('; ');
}

/** Sets the security headers on every response. */
export function securityHeaders(sources: CspSources): MiddlewareHandler {
  const csp = buildCsp(sources);
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    const hashes = c.get('cspScriptHashes');
    // A route's own policy stays (the provider's stored files: default-src 'none'; sandbox): it is
    // always stricter than the site's, which would let an uploaded file run as this origin's page.
    if (!h.has('Content-Security-Policy'))
      h.set('Content-Security-Policy', hashes?.length ? buildCsp(sources, hashes) : csp);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('X-Frame-Options', 'DENY');
    // A route may ask for less (the outbox: no-referrer, so no link in a mail carries its URL away).
    if (!h.has('Referrer-Policy')) h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Permissions-Policy', 'microphone=(self), camera=(self), geolocation=()');
  };
}
