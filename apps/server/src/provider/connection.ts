import { randomUUID } from 'node:crypto';
import type { Db } from '@engage/db';
import type { LimitStore } from '@engage/rate-limit';
import { createVapiClient, type VapiClient } from '@engage/vapi-client';
import {
  createVapiEmulator,
  type EmulatorCallDirectory,
  type TokenRestrictions,
} from '@engage/vapi-emulator';
import type { Hono } from 'hono';
import { connectionAddress } from '../platform/client-address.js';
import type { Config } from '../platform/config.js';
import { ownOrigins } from '../platform/embed-origins.js';
import type { VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { PublicOrigin } from '../platform/public-origin.js';
import type { SecretStore } from '../platform/secrets.js';
import { EMBEDDED_PROVIDER_URL, emulatorKeys } from './emulator-keys.js';
import { providerProxy } from './proxy.js';

/**
 * The provider side of the server: the embedded emulator wired to the server's database, keys and
 * limits (when no real key is configured), and the operators' proxy to whichever provider is in use.
 * @module
 */

/**
 * What each public key may start, as the provider's token restrictions say it (docs/provider.md tells how to
 * set the same on the real provider's keys): the everyone key the public page's assistant only, the
 * members key the sign-in-only pages' assistants; neither an inline (transient) assistant.
 */
export function publicKeyRestrictions(config: Config): Record<'public' | 'members', TokenRestrictions> {
  // With other sites allowed (EMBED_ORIGINS), the everyone key names its origins: those sites and
  // Engage's own (unless unknowable, PORT=0 without PUBLIC_URL: the server's CORS check still holds).
  const own = config.EMBED_ORIGINS.length > 0 ? ownOrigins(config) : null;
  const origins = own ? { allowedOrigins: [...own, ...config.EMBED_ORIGINS] } : {};
  return {
    public: { allowedAssistantIds: [config.ASSISTANT_ID_INDEX], allowTransientAssistant: false, ...origins },
    members: {
      allowedAssistantIds: [config.ASSISTANT_ID_EDISCOVERY, config.ASSISTANT_ID_ONBOARDING],
      allowTransientAssistant: false,
    },
  };
}

/**
 * The one decision between the embedded provider and the real one, and its keys: made once, read by
 * the proxy, the server's own requests and WebSocket calls alike.
 */
export interface ProviderConnection {
  /** True: the embedded emulator, reached in-process through the server's own handler. */
  embedded: boolean;
  privateKey: string;
  /** The public key of the public pages (/config.json for everyone). */
  publicKey: string | null;
  /** The public key of the sign-in-only pages (/config.json with a valid session only). */
  membersPublicKey: string | null;
  /**
   * A client for a request made on behalf of a page at `origin`: the real provider as configured;
   * the embedded one in-process at that origin, so what it builds from its own address (a call
   * room's URL) is the browser's. No X-Forwarded-* are sent: the emulator believes those only from
   * the server's proxy.
   */
  clientAt(origin: string): VapiClient;
}

export function providerConnection(
  config: Config,
  secrets: SecretStore,
  serverFetch: (request: Request) => Promise<Response>,
): ProviderConnection {
  if (!config.embeddedProvider) {
    const privateKey = config.VAPI_PRIVATE_KEY as string;
    const client = createVapiClient({ baseUrl: config.VAPI_API_URL, token: privateKey });
    return {
      embedded: false,
      privateKey,
      publicKey: config.VAPI_PUBLIC_KEY ?? null,
      membersPublicKey: config.VAPI_MEMBERS_PUBLIC_KEY ?? null,
      clientAt: () => client,
    };
  }
  const keys = emulatorKeys(config, secrets);
  return {
    embedded: true,
    privateKey: keys.privateKey,
    publicKey: keys.publicKey,
    membersPublicKey: keys.membersPublicKey,
    clientAt: (origin) =>
      createVapiClient({
        baseUrl: new URL(new URL(EMBEDDED_PROVIDER_URL).pathname, origin).href,
        token: keys.privateKey,
        fetch: (input, init) => serverFetch(new Request(input, init)),
      }),
  };
}

export interface ProviderRoutesOptions {
  /** The server's one limit store (db/limit-store.ts), for the emulator's per-address limits. */
  limitStore?: LimitStore;
  config: Config;
  /** Which provider, with which keys (providerConnection). */
  connection: ProviderConnection;
  db: Db;
  logger: Logger;
  verify: VerifyAccessToken;
  /** The site's public origin (configuration only): the base of the file URLs the emulator stores. */
  publicOrigin: PublicOrigin;
  /** The emulator's local call rooms (see createVapiEmulator's `rooms`). */
  rooms?: Hono | ((calls: EmulatorCallDirectory) => Hono);
  /**
   * The server's own handler. With the embedded emulator the proxy sends upstream requests through
   * it in-process (to `/provider`), so they meet the same middleware as a browser's.
   */
  fetch: (request: Request) => Promise<Response>;
}

/** The provider side of the server, for `app.route()`; see {@link providerRoutes}. */
export interface ProviderRoutes {
  /** The embedded emulator, for `/provider`; null when a real provider key is configured. */
  emulator: Hono | null;
  /** The operators' proxy, for `/api/provider`. */
  proxy: Hono;
  /** The public key of the public pages (/config.json for everyone). */
  publicKey: string | null;
  /** The public key of the sign-in-only pages (/config.json with a valid session only). */
  membersPublicKey: string | null;
  /** The server's own requests to the provider, with the key and the route the proxy uses. */
  client: ProviderClient;
}

/** What the server itself asks the provider (the Answers documents), as the proxy reaches it. */
export interface ProviderClient {
  vapi: VapiClient;
  /** Reads a stored file's URL (the emulator's in-process, the real provider's over the network). */
  fetchFile: typeof fetch;
}

/**
 * The embedded emulator (when no real key is configured) and the proxy to whichever provider is
 * in use. The caller mounts them: `/provider` and `/api/provider` in app.ts.
 */
export function providerRoutes(options: ProviderRoutesOptions): ProviderRoutes {
  const { config, connection, logger } = options;
  const { publicKey, membersPublicKey } = connection;
  if (!connection.embedded) {
    return {
      emulator: null,
      proxy: providerProxy({
        verify: options.verify,
        upstreamBaseUrl: config.VAPI_API_URL,
        privateKey: connection.privateKey,
        logger,
      }),
      publicKey,
      membersPublicKey,
      client: {
        vapi: connection.clientAt(config.VAPI_API_URL),
        fetchFile: (input, init) => fetch(input, init),
      },
    };
  }
  // Proves to the emulator that X-Forwarded-* come from this proxy; new on every start, never shown.
  const forwardedHeaderSecret = randomUUID();
  const emulator = createVapiEmulator({
    db: options.db,
    keys: {
      privateKey: connection.privateKey,
      publicKey: publicKey as string,
      publicKeyRestrictions: publicKeyRestrictions(config).public,
      otherPublicKeys: [
        { value: membersPublicKey as string, restrictions: publicKeyRestrictions(config).members },
      ],
    },
    logger,
    forwardedHeaderSecret,
    // The server's settings, not the emulator's defaults: one body cap and per-address limits.
    maxJsonBytes: config.MAX_JSON_BYTES,
    clientAddress: connectionAddress,
    callsPerMinutePerAddress: config.EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS,
    chatsPerMinutePerAddress: config.EMULATOR_CHATS_PER_MINUTE_PER_ADDRESS,
    conversationDays: config.EMULATOR_CONVERSATION_DAYS,
    limitStore: options.limitStore,
    ...(options.rooms ? { rooms: options.rooms } : {}),
  });
  const proxy = providerProxy({
    verify: options.verify,
    // In-process: the request goes through the server's own handler to the emulator, no socket involved.
    upstreamBaseUrl: EMBEDDED_PROVIDER_URL,
    fetch: options.fetch,
    privateKey: connection.privateKey,
    logger,
    forwardOrigin: { publicOrigin: options.publicOrigin, secret: forwardedHeaderSecret },
  });
  // As the proxy sends: in-process, with the site's public origin (the stored file URLs) vouched for.
  const inProcess: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const origin = new URL(options.publicOrigin());
    request.headers.set('x-forwarded-proto', origin.protocol.replace(':', ''));
    request.headers.set('x-forwarded-host', origin.host);
    request.headers.set('x-engage-proxy', forwardedHeaderSecret);
    return options.fetch(request);
  };
  const client: ProviderClient = {
    vapi: createVapiClient({
      baseUrl: EMBEDDED_PROVIDER_URL,
      token: connection.privateKey,
      fetch: inProcess,
    }),
    // The emulator's file URLs name the site's origin, which is this server: read them in-process.
    fetchFile: (input, init) => options.fetch(new Request(input, init)),
  };
  return { emulator, proxy, publicKey, membersPublicKey, client };
}
