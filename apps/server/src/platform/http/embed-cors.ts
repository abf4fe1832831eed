/**
 * CORS for the sites in EMBED_ORIGINS, on exactly the routes <engage-widget> calls (app.ts mounts
 * it on GET /config.json, the embedded provider's POST /call/web and /chat/web, and POST
 * /api/calls/websocket). A request from Engage's own pages (no Origin, or one naming this host) passes
 * untouched; a listed origin gets its CORS answer; any other origin gets 403 `origin_not_allowed`,
 * readable by that page so the widget can say why instead of failing silently.
 * @module
 */
import type { MiddlewareHandler } from 'hono';

export const ORIGIN_NOT_ALLOWED = 'origin_not_allowed';
export const NOT_ALLOWED_MESSAGE = 'This site is not allowed to use this assistant.';

export type OriginVerdict = 'same' | 'allowed' | 'refused';

/**
 * Where a request comes from. `host` is the request's Host: a browser sets both headers itself, so
 * a page elsewhere cannot pass for this one. No Origin: not a cross-origin browser request (a
 * same-origin GET, or a program, which no CORS rule binds anyway).
 */
export function originVerdict(
  origin: string | undefined,
  host: string | undefined,
  allowed: ReadonlySet<string>,
  own?: string,
): OriginVerdict {
  if (origin === undefined) return 'same';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'refused'; // 'null' (a sandboxed frame, a file) or garbage
  }
  if (host && url.host === host.toLowerCase()) return 'same';
  // Engage's own pages by its public origin (PUBLIC_URL): behind a proxy that rewrites Host, the
  // request's Host is the upstream's, not the page's.
  if (own !== undefined && url.origin === own && origin === own) return 'same';
  return allowed.has(url.origin) && url.origin === origin ? 'allowed' : 'refused';
}

/**
 * The embed CORS rules for one set of routes; `methods` are what those routes answer, `siteOrigin`
 * Engage's public origin (its own pages are never refused).
 */
export function embedCors(
  origins: readonly string[],
  methods: readonly ('GET' | 'POST')[],
  siteOrigin?: () => string,
): MiddlewareHandler {
  const allowed = new Set(origins);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const own = siteOrigin && new URL(siteOrigin()).origin;
    const verdict = originVerdict(origin, c.req.header('host'), allowed, own);
    if (verdict === 'same' || origin === undefined) {
      await next();
      // Also on Engage's own answers: a shared cache keeping one without Vary would hand it, with no
      // CORS grant, to a listed site's widget.
      varyOnOrigin(c.res.headers);
      return undefined;
    }
    const cors = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (verdict === 'refused')
      return c.json({ error: ORIGIN_NOT_ALLOWED, message: NOT_ALLOWED_MESSAGE }, 403, cors);
    if (c.req.method === 'OPTIONS') {
      const asked = c.req.header('access-control-request-method') ?? '';
      if (!(methods as readonly string[]).includes(asked)) return c.body(null, 204, cors);
      return c.body(null, 204, {
        ...cors,
        'Access-Control-Allow-Methods': methods.join(', '),
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      });
    }
    // Set before the route answers (a context's answer carries them) and checked after it (an answer
    // built as a Response of its own).
    c.header('Access-Control-Allow-Origin', origin);
    await next();
    // The route's answer (errors and 429s included) is readable by the page that asked.
    c.res.headers.set('Access-Control-Allow-Origin', origin);
    varyOnOrigin(c.res.headers);
    return undefined;
  };
}

function varyOnOrigin(headers: Headers) {
  const vary = headers.get('Vary');
  if (!vary?.split(',').some((v) => ['origin', '*'].includes(v.trim().toLowerCase())))
    headers.set('Vary', vary ? `${vary}, Origin` : 'Origin');
}

/**
 * The same rule for the call rooms' WebSocket upgrade (`/provider/rooms/*`). A browser sends Origin
 * on every WebSocket handshake and applies no CORS to it, so without this any page could open a
 * room; a page of another site than Engage's own and EMBED_ORIGINS gets 403 `origin_not_allowed`
 * before the upgrade (and before the call is claimed). A program (the voice SDK in Node) sends no
 * Origin and passes, as no origin rule binds it anyway. No CORS headers: the handshake is not CORS.
 */
export function embedUpgradeOrigin(origins: readonly string[], siteOrigin?: () => string): MiddlewareHandler {
  const allowed = new Set(origins);
  return async (c, next) => {
    const own = siteOrigin && new URL(siteOrigin()).origin;
    if (originVerdict(c.req.header('origin'), c.req.header('host'), allowed, own) === 'refused')
      return c.json({ error: ORIGIN_NOT_ALLOWED, message: NOT_ALLOWED_MESSAGE }, 403);
    return next();
  };
}
