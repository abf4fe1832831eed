import {
  addressKey,
  createLimiter,
  memoryLimitStore,
  retryAfterSeconds,
  type LimitStore,
} from '@engage/rate-limit';
import { dataOf, isVapiApiError, type VapiRequestBody } from '@engage/vapi-client';
import { VARIABLE_VALUES_LIMITS } from '@engage/vapi-emulator';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { bearerToken } from '../platform/bearer-token.js';
import { clientIp } from '../platform/client-address.js';
import type { Config } from '../platform/config.js';
import {
  isMember,
  MFA_REQUIRED_MESSAGE,
  needsSecondFactor,
  type AuthenticatedUser,
  type VerifyAccessToken,
} from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { ownRequestOrigin, type PublicOrigin } from '../platform/public-origin.js';
import type { ProviderConnection } from './connection.js';

/**
 * `POST /api/calls/websocket`: starts a call over the provider's `vapi.websocket` transport.
 * Creating such a call needs the private key (`POST /call`), so the browser asks this server, which
 * holds the key, instead of the provider. Only the assistants allowed by configuration can be
 * started, anonymous visitors only when configuration says so, and at a bounded rate.
 * @module
 */

/** The transport the browser SDK speaks: 16 kHz 16-bit little-endian PCM. */
export const WEBSOCKET_AUDIO_FORMAT = { format: 'pcm_s16le', container: 'raw', sampleRate: 16_000 } as const;

export interface ProviderCallBody {
  assistantId: string;
  assistantOverrides?: { variableValues: Record<string, string | number | boolean> };
  transport: { provider: 'vapi.websocket'; audioFormat: typeof WEBSOCKET_AUDIO_FORMAT };
}

export interface WebSocketCallsOptions {
  /**
   * Creates the call at the provider with the server's private key (`POST /call`) and resolves with
   * the provider's answer; a refusal throws the client's VapiApiError, an unreachable provider any
   * other error. `origin` is this server's public origin as the browser sees it (the embedded
   * emulator builds its room URL from it).
   */
  createProviderCall: (body: ProviderCallBody, origin: string) => Promise<unknown>;
  /** Assistant ids that may be started, or '*' for any. */
  assistants: readonly string[] | '*';
  /** False: only signed-in users may start calls. */
  allowAnonymous: boolean;
  /**
   * The assistants an anonymous caller may start (the public pages'): the sign-in-only pages'
   * assistants need a session here as their public key does at the provider. Default: any allowed.
   */
  anonymousAssistants?: readonly string[];
  verifyAccessToken: VerifyAccessToken;
  /** Calls per minute per signed-in user, or per address for anonymous callers. */
  perMinute: number;
  logger: Logger;
  /**
   * The site's public origin (configuration only): where the embedded provider puts the call's
   * room. The request's own origin only when it is a loopback twin of it (ownRequestOrigin), never
   * a host a client named in Host or X-Forwarded-*.
   */
  publicOrigin: PublicOrigin;
  /** The server's limit store (db/limit-store.ts); memory when absent. */
  limitStore?: LimitStore;
  /** Told of every call created (the operators' metrics). */
  onCallStarted?: () => void;
  now?: () => number;
}

// One rule for what a caller may pass as variableValues, shared with the embedded provider.
const { maxKeys, maxKeyLength, maxValueLength, maxBytes } = VARIABLE_VALUES_LIMITS;
const bodySchema = z.strictObject({
  assistantId: z.string().trim().min(1, 'assistantId is required').max(128),
  // Only template variables: anything else (prompt, tools, server URL) would let a visitor rewrite
  // the owner's assistant with the owner's key.
  assistantOverrides: z
    .strictObject({
      variableValues: z
        .record(
          z.string().max(maxKeyLength),
          z.union([z.string().max(maxValueLength), z.number(), z.boolean()]),
        )
        .refine((v) => Object.keys(v).length <= maxKeys, `at most ${maxKeys} variableValues`)
        .refine(
          (v) => Buffer.byteLength(JSON.stringify(v)) <= maxBytes,
          `variableValues may be at most ${maxBytes} bytes as JSON`,
        ),
    })
    .optional(),
});

/** What the browser gets: the call's id and how to join it, nothing of the provider's internals. */
const providerCallSchema = z.looseObject({
  id: z.string(),
  status: z.string().optional(),
  assistantId: z.string().nullish(),
  createdAt: z.string().optional(),
  transport: z.looseObject({ websocketCallUrl: z.string().regex(/^wss?:\/\//) }),
});

const error = (c: Context, status: 400 | 401 | 403 | 404 | 429 | 502 | 503, code: string, message: string) =>
  c.json({ error: code, message }, status);

/** A provider that refused the call, or could not be reached, as an answer the widget can show. */
function providerFailure(c: Context, cause: unknown, assistantId: string, logger: Logger): Response {
  if (!isVapiApiError(cause)) {
    logger.error('websocket call: provider unreachable', { error: String(cause) });
    return error(c, 502, 'provider_unreachable', 'The voice provider could not be reached; try again.');
  }
  logger.warn('websocket call: provider refused', {
    status: cause.status,
    detail: cause.message.slice(0, 500),
  });
  if (cause.status === 404)
    return error(c, 404, 'assistant_not_found', `The provider has no assistant ${assistantId}.`);
  if (cause.status === 429 || cause.status === 503)
    return error(c, 503, 'provider_busy', 'The voice provider is busy; try again shortly.');
  return error(c, 502, 'provider_error', `The voice provider refused the call (${cause.status}).`);
}

export function websocketCallsRoute(options: WebSocketCallsOptions): Hono {
  // The server's one limiter: `perMinute` at once, then one more every 60/perMinute seconds.
  const limiter = createLimiter(
    'websocket-calls',
    { burst: options.perMinute, perWindow: options.perMinute, windowMs: 60_000 },
    { store: options.limitStore ?? memoryLimitStore(), now: options.now },
  );
  const allowed = (id: string) => options.assistants === '*' || options.assistants.includes(id);

  return new Hono().post('/', async (c) => {
    const token = bearerToken(c);
    // A member's token counts (its own per-user limit, the sign-in-only assistants); an anonymous
    // user's session is a visitor's, limited by address like one without a token.
    let user: AuthenticatedUser | null = null;
    if (token) {
      const verified = await options.verifyAccessToken(token);
      if (!verified) return error(c, 401, 'unauthorized', 'Your session has expired; sign in again.');
      // A token counts only once it used the account's second factor.
      if (needsSecondFactor(verified)) return error(c, 403, 'mfa_required', MFA_REQUIRED_MESSAGE);
      if (isMember(verified)) user = verified;
    }
    if (!user && !options.allowAnonymous) return error(c, 401, 'unauthorized', 'Sign in to start a call.');

    const parsed = await readJsonBody(c, bodySchema);
    if (!parsed.ok) return parsed.response;
    const { assistantId, assistantOverrides } = parsed.data;
    if (!allowed(assistantId))
      return error(
        c,
        403,
        'assistant_not_allowed',
        `Assistant ${assistantId} cannot be called from this site.`,
      );
    if (!user && options.anonymousAssistants && !options.anonymousAssistants.includes(assistantId))
      return error(c, 401, 'unauthorized', 'Sign in to call this assistant.');

    // Counted once the request is valid: what is limited is calls created with the owner's key.
    const key = user ? `user:${user.id}` : `ip:${addressKey(clientIp(c))}`;
    const decision = await limiter.take(key);
    if (!decision.allowed) {
      const retryAfter = retryAfterSeconds(decision);
      c.header('Retry-After', String(retryAfter));
      return error(c, 429, 'rate_limited', `Too many calls started; try again in ${retryAfter} s.`);
    }

    const body: ProviderCallBody = {
      assistantId,
      ...(assistantOverrides ? { assistantOverrides } : {}),
      transport: { provider: 'vapi.websocket', audioFormat: WEBSOCKET_AUDIO_FORMAT },
    };
    let created: unknown;
    try {
      created = await options.createProviderCall(body, ownRequestOrigin(c.req.url, options.publicOrigin()));
    } catch (cause) {
      return providerFailure(c, cause, assistantId, options.logger);
    }
    const call = providerCallSchema.safeParse(created);
    if (!call.success) {
      options.logger.error('websocket call: unexpected provider answer', {
        issue: call.error.issues[0]?.message,
      });
      return error(c, 502, 'provider_error', 'The voice provider answered without a call URL.');
    }
    const { id, status, createdAt, transport } = call.data;
    options.onCallStarted?.();
    return c.json(
      {
        id,
        type: 'vapi.websocketCall',
        status: status ?? 'queued',
        assistantId,
        ...(createdAt ? { createdAt } : {}),
        webCallUrl: transport.websocketCallUrl,
        transport: {
          provider: 'vapi.websocket',
          websocketCallUrl: transport.websocketCallUrl,
          audioFormat: WEBSOCKET_AUDIO_FORMAT,
        },
      },
      201,
    );
  });
}

/**
 * `createProviderCall` for {@link websocketCallsRoute}: `POST /call` through the SDK's client, at
 * the provider the connection names (the embedded one in-process at the browser's origin).
 */
export function providerCallSender(
  connection: Pick<ProviderConnection, 'clientAt'>,
): WebSocketCallsOptions['createProviderCall'] {
  // The body is the browser's, checked by this route's own schema before it is relayed.
  return (body, origin) =>
    dataOf(
      connection.clientAt(origin).POST('/call', { body: { ...body } as VapiRequestBody<'/call', 'post'> }),
    );
}

export interface WebSocketCallsOptionsFromConfig {
  config: Config;
  /** Which provider, with which keys (connection.ts). */
  connection: ProviderConnection;
  verifyAccessToken: VerifyAccessToken;
  logger: Logger;
  publicOrigin: PublicOrigin;
  limitStore?: LimitStore;
  onCallStarted?: () => void;
}

/** `POST /api/calls/websocket` from configuration, for `app.route()`. */
export function websocketCalls(options: WebSocketCallsOptionsFromConfig): Hono {
  const { config } = options;
  return websocketCallsRoute({
    createProviderCall: providerCallSender(options.connection),
    assistants: config.websocketCallAssistants,
    allowAnonymous: config.WEBSOCKET_CALLS_ANONYMOUS,
    anonymousAssistants: [config.ASSISTANT_ID_INDEX],
    perMinute: config.WEBSOCKET_CALLS_PER_MINUTE,
    verifyAccessToken: options.verifyAccessToken,
    logger: options.logger,
    publicOrigin: options.publicOrigin,
    limitStore: options.limitStore,
    ...(options.onCallStarted && { onCallStarted: options.onCallStarted }),
  });
}
