import { Hono, type Context } from 'hono';
import { requireOperator, type VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { PublicOrigin } from '../platform/public-origin.js';
import {
  BAD_PATH_MESSAGE,
  BAD_RAW,
  isDotSegment,
  providerPathSegments,
  rawPathOf,
  rawSearchOf,
} from './provider-path.js';

/**
 * `/api/provider/*`: the provider's API for operators and admins, with the private key the server
 * holds (a signed-in user without the role gets 403 and uses their own key from the browser).
 * The caller's own credentials (Authorization, cookies) never travel upstream; the key never
 * travels back. Bodies stream both ways, so an upload is never held whole in memory.
 * @module
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What an operator may do with the server's key: the routes the import tool and the site use.
 * Anything else (tokens, credentials, org members, phone numbers…) would hand every user the
 * owner's whole account, so it is refused with 403.
 */
export const PROXY_ALLOWED: readonly [Method, RegExp][] = [
  ['GET', /^\/file$/],
  ['POST', /^\/file$/],
  ['GET', /^\/file\/[^/]+$/],
  ['PATCH', /^\/file\/[^/]+$/],
  ['DELETE', /^\/file\/[^/]+$/],
  ['GET', /^\/tool$/],
  ['POST', /^\/tool\/?$/],
  ['GET', /^\/tool\/[^/]+$/],
  ['PATCH', /^\/tool\/[^/]+$/],
  ['DELETE', /^\/tool\/[^/]+$/],
  ['GET', /^\/assistant$/],
  ['GET', /^\/assistant\/[^/]+$/],
  ['PATCH', /^\/assistant\/[^/]+$/],
  ['GET', /^\/knowledge-base$/],
  ['POST', /^\/knowledge-base$/],
  ['GET', /^\/knowledge-base\/[^/]+$/],
  ['PATCH', /^\/knowledge-base\/[^/]+$/],
  ['DELETE', /^\/knowledge-base\/[^/]+$/],
  // v2 knowledge bases: the import tool's alternative to a query tool.
  ['GET', /^\/v2\/knowledge-base$/],
  ['POST', /^\/v2\/knowledge-base$/],
  ['GET', /^\/v2\/knowledge-base\/[^/]+$/],
  ['PATCH', /^\/v2\/knowledge-base\/[^/]+$/],
  ['DELETE', /^\/v2\/knowledge-base\/[^/]+$/],
  ['GET', /^\/v2\/knowledge-base\/[^/]+\/file$/],
  ['POST', /^\/v2\/knowledge-base\/[^/]+\/file$/],
  ['DELETE', /^\/v2\/knowledge-base\/[^/]+\/file\/[^/]+$/],
  ['POST', /^\/v2\/knowledge-base\/[^/]+\/file\/[^/]+\/retry$/],
  // Conversations (/conversations): read the visitors' calls and chats, delete one on request.
  ['GET', /^\/call$/],
  ['GET', /^\/call\/[^/]+$/],
  ['DELETE', /^\/call\/[^/]+$/],
  ['GET', /^\/chat$/],
  ['GET', /^\/chat\/[^/]+$/],
  ['DELETE', /^\/chat\/[^/]+$/],
];

/** Request headers passed upstream; everything else (Authorization, Cookie, Host…) stays here. */
const REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'content-length'];
/** Response headers passed back. Content-Encoding/Length are dropped: fetch has already decoded. */
const RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export interface ProviderProxyOptions {
  verify: VerifyAccessToken;
  /** The provider's API base, e.g. https://api.vapi.ai, or http://embedded/provider for the emulator. */
  upstreamBaseUrl: string;
  privateKey: string;
  /** How requests reach upstream: the global fetch, or the server's own handler for the emulator. */
  fetch?: (request: Request) => Promise<Response>;
  logger?: Logger;
  /**
   * Tells the embedded emulator the site's public origin (X-Forwarded-Proto/Host) so the file URLs
   * it stores are ones the browser can reach. The origin comes from configuration, never from the
   * caller's Host or X-Forwarded-* (which would end up in URLs stored for every user); `secret` goes
   * along as X-Engage-Proxy so the emulator trusts those headers only from this proxy. Never sent
   * to a real provider.
   */
  forwardOrigin?: { publicOrigin: PublicOrigin; secret: string };
  /** Largest request body passed upstream; larger ones get 413 (default 50 MiB). */
  maxBodyBytes?: number;
}

export const DEFAULT_PROXY_MAX_BODY_BYTES = 50 * 1024 * 1024;

/** A request the proxy passed upstream: its method and the provider path it was authorised on. */
export interface ForwardedRoute {
  method: Method;
  /** The provider path as sent (each segment decoded once and encoded again), e.g. `/chat/abc`. */
  path: string;
}

const forwarded = new WeakMap<Request, ForwardedRoute>();

/**
 * What the proxy forwarded for this request (undefined when it refused it): middleware around the
 * proxy reads the route exactly as the proxy parsed it, never its own reading of the URL.
 */
export const forwardedRoute = (request: Request): ForwardedRoute | undefined => forwarded.get(request);

/** Passes a body through chunk by chunk, failing once more than `max` bytes have gone by. */
function capped(
  body: ReadableStream<Uint8Array>,
  max: number,
  onExceeded: () => void,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) {
          onExceeded();
          controller.error(new Error('request body too large'));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

const json = (c: Context, status: 400 | 403 | 405 | 413 | 502, error: string, message: string) =>
  c.json({ error, message }, status);

export function providerProxy(options: ProviderProxyOptions): Hono {
  if (!options.privateKey) throw new Error('providerProxy needs the private key');
  const upstream = new URL(options.upstreamBaseUrl.replace(/\/+$/, ''));
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const maxBody = options.maxBodyBytes ?? DEFAULT_PROXY_MAX_BODY_BYTES;
  // The rest of the body is never read, so the connection cannot carry another request.
  const tooLarge = (c: Context) => {
    c.header('Connection', 'close');
    return json(
      c,
      413,
      'payload_too_large',
      `The request body is too large: at most ${maxBody} bytes are passed on.`,
    );
  };
  const app = new Hono();

  app.use('*', requireOperator(options.verify));
  app.all('/*', async (c) => {
    const method = c.req.method.toUpperCase() as Method;
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
      return json(c, 405, 'method_not_allowed', `${c.req.method} is not supported here.`);
    // The proxy may be mounted anywhere: the route pattern tells how many segments are the mount's.
    const mountDepth = c.req.routePath.replace(/\/\*$/, '').split('/').filter(Boolean).length;
    // Both the raw request text and the router's decoded path are checked: each runtime decodes
    // and normalises differently, and upstream decodes once more.
    const segments = providerPathSegments(rawPathOf(c.req.raw.url), mountDepth);
    const decodedPath = c.req.path;
    // On Node, Request.url has already been through the URL parser, which resolves '..' and '%2e%2e'
    // away; the request line itself (IncomingMessage.url) still holds what the client sent.
    const requestLine = (c.env as { incoming?: { url?: unknown } } | undefined)?.incoming?.url;
    if (
      (typeof requestLine === 'string' &&
        providerPathSegments(rawPathOf(requestLine), mountDepth) === null) ||
      !segments ||
      BAD_RAW.test(decodedPath) ||
      decodedPath.split('/').some(isDotSegment) ||
      providerPathSegments(decodedPath, mountDepth) === null
    )
      return json(c, 400, 'bad_path', BAD_PATH_MESSAGE);

    // Authorisation is decided on the URL that is actually sent, each segment encoded again.
    const target = new URL(`${basePath}/${segments.map(encodeURIComponent).join('/')}`, upstream);
    target.search = rawSearchOf(c.req.raw.url);
    const path = target.pathname.startsWith(`${basePath}/`) ? target.pathname.slice(basePath.length) : null;
    if (target.origin !== upstream.origin || path === null) return json(c, 400, 'bad_path', BAD_PATH_MESSAGE);
    if (!PROXY_ALLOWED.some(([m, re]) => m === method && re.test(path)))
      return json(
        c,
        403,
        'route_not_allowed',
        `${method} ${path} is not available through the server's provider key.`,
      );

    forwarded.set(c.req.raw, { method, path });

    const headers = new Headers();
    for (const name of REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    headers.set('authorization', `Bearer ${options.privateKey}`);
    if (options.forwardOrigin) {
      const origin = new URL(options.forwardOrigin.publicOrigin());
      headers.set('x-forwarded-proto', origin.protocol.replace(':', ''));
      headers.set('x-forwarded-host', origin.host);
      headers.set('x-engage-proxy', options.forwardOrigin.secret);
    }
    const hasBody = method !== 'GET' && method !== 'DELETE' && c.req.raw.body !== null;
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > maxBody) return tooLarge(c);
    let exceeded = false;

    let res: Response;
    try {
      res = await send(
        new Request(target, {
          method,
          headers,
          // Streams the caller's body through as it arrives (multipart uploads included).
          body: hasBody
            ? capped(c.req.raw.body as ReadableStream<Uint8Array>, maxBody, () => (exceeded = true))
            : undefined,
          signal: c.req.raw.signal,
          redirect: 'manual',
          ...(hasBody ? { duplex: 'half' } : {}),
        } as RequestInit),
      );
    } catch (error) {
      if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
      if (exceeded) return tooLarge(c);
      // Only the method and path: never headers, which carry the key.
      options.logger?.warn('provider proxy: upstream unreachable', {
        method,
        path,
        error: (error as Error).message,
      });
      return json(
        c,
        502,
        'provider_unreachable',
        'The voice provider could not be reached. Try again shortly.',
      );
    }

    const out = new Headers({ 'cache-control': 'no-store' });
    for (const name of RESPONSE_HEADERS) {
      const value = res.headers.get(name);
      if (value) out.set(name, value);
    }
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
  });
  return app;
}
