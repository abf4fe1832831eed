import { randomUUID } from 'node:crypto';
import { createVapiEmulator, type EmulatorCallDirectory } from '@engage/vapi-emulator';
import { Hono, type Context } from 'hono';
import type { Config } from '../config.js';
import type { Db } from '../db/types.js';
import type { Logger } from '../lib/logger.js';
import type { SecretStore } from '../lib/secrets.js';
import { requireUser, type VerifyAccessToken } from '../middleware/require-auth.js';

/**
 * `/api/provider/*`: the provider's API for signed-in users, with the private key the server holds.
 * The caller's own credentials (Authorization, cookies) never travel upstream; the key never
 * travels back. Bodies stream both ways, so an upload is never held whole in memory.
 * @module
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a signed-in user may do with the server's key: the routes the import tool and the site use.
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
   * Tells upstream the caller's public origin (X-Forwarded-Proto/Host), so the embedded emulator
   * builds URLs the browser can reach. Never sent to a real provider.
   */
  forwardOrigin?: boolean;
  /** Largest request body passed upstream; larger ones get 413 (default 50 MiB). */
  maxBodyBytes?: number;
}

export const DEFAULT_PROXY_MAX_BODY_BYTES = 50 * 1024 * 1024;

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

  app.use('*', requireUser(options.verify));
  app.all('/*', async (c) => {
    const method = c.req.method.toUpperCase() as Method;
    // The proxy may be mounted anywhere: the route pattern tells where its own paths begin.
    const mount = c.req.routePath.replace(/\/\*$/, '');
    const path = c.req.path.slice(mount.length) || '/';
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
      return json(c, 405, 'method_not_allowed', `${c.req.method} is not supported here.`);
    if (!PROXY_ALLOWED.some(([m, re]) => m === method && re.test(path)))
      return json(
        c,
        403,
        'route_not_allowed',
        `${method} ${path} is not available through the server's provider key.`,
      );

    const target = new URL(upstream.pathname.replace(/\/$/, '') + path + new URL(c.req.url).search, upstream);
    const headers = new Headers();
    for (const name of REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    headers.set('authorization', `Bearer ${options.privateKey}`);
    if (options.forwardOrigin) {
      const url = new URL(c.req.url);
      headers.set('x-forwarded-proto', c.req.header('x-forwarded-proto') ?? url.protocol.replace(':', ''));
      headers.set('x-forwarded-host', c.req.header('x-forwarded-host') ?? c.req.header('host') ?? url.host);
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

export interface MountProviderOptions {
  config: Config;
  db: Db;
  logger: Logger;
  secrets: SecretStore;
  verify: VerifyAccessToken;
  /** The emulator's local call rooms (see createVapiEmulator's `rooms`). */
  rooms?: Hono | ((calls: EmulatorCallDirectory) => Hono);
}

/** The emulator's keys: from EMULATOR_PUBLIC_KEY / EMULATOR_PRIVATE_KEY, else generated once in DATA_DIR. */
export function emulatorKeys(
  config: Config,
  secrets: SecretStore,
): { publicKey: string; privateKey: string } {
  return {
    publicKey: config.EMULATOR_PUBLIC_KEY ?? secrets.getOrCreate('emulatorPublicKey', () => randomUUID()),
    privateKey: config.EMULATOR_PRIVATE_KEY ?? secrets.getOrCreate('emulatorPrivateKey', () => randomUUID()),
  };
}

/**
 * Mounts the provider side of the server: the embedded emulator at /provider (when no real key is
 * configured) and the proxy at /api/provider. Returns the public key the browser should use.
 */
export function mountProvider(app: Hono, options: MountProviderOptions): { publicKey: string | null } {
  const { config, logger } = options;
  if (!config.embeddedProvider) {
    app.route(
      '/api/provider',
      providerProxy({
        verify: options.verify,
        upstreamBaseUrl: config.VAPI_API_URL,
        privateKey: config.VAPI_PRIVATE_KEY as string,
        logger,
      }),
    );
    return { publicKey: config.VAPI_PUBLIC_KEY ?? null };
  }
  const keys = emulatorKeys(config, options.secrets);
  app.route(
    '/provider',
    createVapiEmulator({
      db: options.db,
      keys,
      logger,
      ...(options.rooms ? { rooms: options.rooms } : {}),
    }),
  );
  app.route(
    '/api/provider',
    providerProxy({
      verify: options.verify,
      // In-process: the request goes through this same app to the emulator, no socket involved.
      upstreamBaseUrl: 'http://embedded.invalid/provider',
      fetch: async (request) => app.fetch(request),
      privateKey: keys.privateKey,
      logger,
      forwardOrigin: true,
    }),
  );
  return { publicKey: keys.publicKey };
}
