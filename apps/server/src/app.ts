import type { Db } from '@engage/db';
import type { BackupStatus } from '@engage/http-contract';
import type { UnansweredAnswer } from '@engage/http-contract/conversations';
import type { LimitStore } from '@engage/rate-limit';
import { createRooms, type RoomUpgrade } from '@engage/vapi-emulator';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { adminEmbedRoutes } from './admin/embed-routes.js';
import { adminOAuthClientRoutes } from './admin/oauth-client-routes.js';
import { adminRoutes } from './admin/routes.js';
import { authRoutes } from './auth/http/routes.js';
import { mailOutboxToken } from './auth/outbox/access.js';
import { mailRoutes } from './auth/outbox/routes.js';
import type { AuthService } from './auth/service.js';
import { answersStore } from './conversations/answers-store.js';
import { assistantLock } from './conversations/assistant-lock.js';
import { conversationRoutes, invalidateOnDelete } from './conversations/routes.js';
import { cachedScan } from './conversations/unanswered-cache.js';
import { scanUnanswered } from './conversations/unanswered-scan.js';
import { limitStoreFor } from './db/limit-store.js';
import { sharedGeneration } from './db/shared-generation.js';
import { connectionAddress } from './platform/client-address.js';
import type { Config } from './platform/config.js';
import { healthRoutes } from './platform/health.js';
import { isMultipartUpload, jsonBodyLimit } from './platform/http/body-limit.js';
import { databaseUnavailable } from './platform/http/database-unavailable.js';
import { embedCors, embedUpgradeOrigin } from './platform/http/embed-cors.js';
import { requestLog } from './platform/http/request-log.js';
import type { VerifyAccessToken } from './platform/http/require-auth.js';
import { securityHeaders } from './platform/http/security-headers.js';
import type { Logger } from './platform/logger.js';
import { createPublicOrigin, type PublicOrigin } from './platform/public-origin.js';
import type { SecretStore } from './platform/secrets.js';
import { providerRoutes } from './provider/connection.js';
import { websocketCalls } from './provider/websocket-calls.js';
import { buildPublicConfig, publicConfigRoute } from './site/public-config.js';
import { serverPathsOf } from './site/server-paths.js';
import { staticSite } from './site/static-site.js';
import { allMigrations } from './startup.js';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  secrets: SecretStore;
  /** Checks a user's access token (embedded auth or hosted Supabase): use with requireUser/requireAdmin. */
  verifyAccessToken: VerifyAccessToken;
  /** The embedded auth service (mounted at /auth/v1 and /_mail); absent with hosted Supabase. */
  auth?: AuthService | null;
  /** The anon key the browser gets in /config.json (embedded auth). */
  authAnonKey?: string | null;
  /** WebSocket upgrades for the emulator's call rooms (server.ts); without it there are no rooms. */
  upgradeWebSocket?: RoomUpgrade;
  /** The site's public origin (platform/public-origin.ts); defaults to PUBLIC_URL or the configured port. */
  publicOrigin?: PublicOrigin;
  /**
   * Where every limit of the app counts (db/limit-store.ts): by default PostgreSQL's table with
   * DATABASE_URL, memory with PGlite. One store for the auth, the emulator and the WebSocket calls.
   */
  limitStore?: LimitStore;
  /** Scheduled backups' state for the admin dashboard (backup/runtime.ts). */
  backupStatus?: () => BackupStatus;
}

/** A JSON error body for API paths; pages get plain text. */
function errorBody(status: number, message: string) {
  return { error: status >= 500 ? 'internal_error' : 'request_error', message };
}

/**
 * Composes the whole server: public config, health, feature modules and the built site.
 * Kept apart from `serve()` so tests drive it with `app.request()`.
 */
export function createApp(deps: AppDeps): Hono {
  const { config, db, logger, upgradeWebSocket } = deps;
  // Read by the routes that build links or stored URLs (auth mail, the provider's file URLs).
  const publicOrigin = deps.publicOrigin ?? createPublicOrigin(config).get;
  const limitStore = deps.limitStore ?? limitStoreFor(db);
  const app = new Hono();

  app.use('*', requestLog(logger));
  app.use(
    '*',
    securityHeaders({
      connect: [
        config.SUPABASE_URL,
        config.embeddedProvider ? undefined : config.VAPI_API_URL,
        // WebSocket calls join wss://<provider host>/<callId>/transport; CSP's https: does not cover wss:.
        config.embeddedProvider ? undefined : config.VAPI_API_URL.replace(/^http/, 'ws'),
      ].filter((v): v is string => Boolean(v)),
    }),
  );
  // Every body is capped before any route reads it (MAX_JSON_BYTES); file uploads have their own caps.
  app.use(
    '*',
    jsonBodyLimit({
      maxBytes: config.MAX_JSON_BYTES,
      exempt: isMultipartUpload(['/provider/file', '/api/provider/file']),
    }),
  );
  // WebSocket upgrades and streamed uploads must pass untouched; everything else may be compressed.
  app.use('*', async (c, next) => {
    if (c.req.header('upgrade')) return next();
    return compress()(c, next);
  });
  // A request that found the database unreachable answers 503 database_unavailable, not 500.
  app.use('*', databaseUnavailable());

  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    logger.error('unhandled error', { path: c.req.path, error: error.message, stack: error.stack });
    return c.json(errorBody(500, 'Something went wrong on the server.'), 500);
  });

  // The routes <engage-widget> calls from the sites in EMBED_ORIGINS (CORS), and from no other site.
  app.use('/config.json', embedCors(config.EMBED_ORIGINS, ['GET'], publicOrigin));
  for (const path of ['/provider/call/web', '/provider/chat/web', '/api/calls/websocket'])
    app.use(path, embedCors(config.EMBED_ORIGINS, ['POST'], publicOrigin));
  // The embedded provider's call rooms (WebSocket): pages of other sites are refused before the upgrade.
  app.use('/provider/rooms/*', embedUpgradeOrigin(config.EMBED_ORIGINS, publicOrigin));

  // Liveness (/healthz) and readiness (/readyz: the database answers, migrations done).
  app.route('/', healthRoutes({ db, migrationIds: allMigrations().map((m) => m.id) }));

  if (config.embeddedAuth && deps.auth) {
    app.route(
      '/auth/v1',
      authRoutes({
        service: deps.auth,
        logger,
        siteTitle: config.siteTitle,
        maxJsonBytes: config.MAX_JSON_BYTES,
      }),
    );
    // The outbox needs its token (DATA_DIR, printed at start); the cookie is Secure behind https.
    app.route(
      '/_mail',
      mailRoutes({
        db,
        token: mailOutboxToken(deps.secrets, config.MAIL_OUTBOX_TOKEN),
        secureCookie: publicOrigin().startsWith('https:'),
      }),
    );
  }

  // The GoTrue admin API's OAuth clients for the dashboard (embedded auth; before /api/admin, whose
  // user-admin checks are not theirs).
  if (config.embeddedAuth && deps.auth)
    app.route(
      '/api/admin/oauth-clients',
      adminOAuthClientRoutes({
        service: deps.auth,
        verifyAccessToken: deps.verifyAccessToken,
        logger,
        requireMfa: config.ADMIN_REQUIRE_MFA,
      }),
    );

  // The dashboard's "Embed" panel: admins only, whichever auth backend holds the users.
  app.route(
    '/api/admin/embed',
    adminEmbedRoutes({ config, verifyAccessToken: deps.verifyAccessToken, siteOrigin: publicOrigin }),
  );
  // User administration: admins only (checked on the server), see admin/routes.ts.
  app.route(
    '/api/admin',
    adminRoutes({
      config,
      db,
      logger,
      verifyAccessToken: deps.verifyAccessToken,
      auth: deps.auth,
      siteOrigin: publicOrigin,
      ...(deps.backupStatus && { backupStatus: deps.backupStatus }),
    }),
  );

  // The embedded provider at /provider (without VAPI_PRIVATE_KEY) and /api/provider for operators.
  // Both reach the emulator through this app's own handler, so in-process requests meet its middleware.
  const selfFetch = async (request: Request) => app.fetch(request);
  const provider = providerRoutes({
    config,
    db,
    logger,
    secrets: deps.secrets,
    verify: deps.verifyAccessToken,
    publicOrigin,
    fetch: selfFetch,
    limitStore,
    ...(upgradeWebSocket && {
      rooms: (calls) =>
        createRooms({
          ...calls,
          upgradeWebSocket,
          logger,
          maxRooms: config.CALL_ROOMS_MAX,
          maxRoomsPerAddress: config.CALL_ROOMS_PER_ADDRESS,
          clientAddress: connectionAddress,
        }).app,
    }),
  });
  if (provider.emulator) app.route('/provider', provider.emulator);
  // /api/conversations: the Unanswered tab's scan (kept a minute) and the Answers documents, saved
  // one at a time per assistant. A conversation deleted through the proxy drops the kept scan.
  const answers = answersStore(provider.client.requester, provider.client.fetchFile);
  // On PostgreSQL other instances may share the database: a save or deletion through any of them
  // drops every instance's kept scan (a counter in the database). PGlite is one process.
  const unansweredCache = cachedScan<UnansweredAnswer>(
    db.kind === 'postgres'
      ? {
          shared: sharedGeneration(db, 'unanswered'),
          onSharedError: (error) =>
            logger.warn('unanswered: the shared cache counter failed', {
              error: error instanceof Error ? error.message : String(error),
            }),
        }
      : {},
  );
  const siteAssistantIds = [
    config.ASSISTANT_ID_INDEX,
    config.ASSISTANT_ID_EDISCOVERY,
    config.ASSISTANT_ID_ONBOARDING,
  ];
  app.use('/api/provider/*', invalidateOnDelete(unansweredCache));
  app.route('/api/provider', provider.proxy);
  app.route(
    '/api/conversations',
    conversationRoutes({
      verify: deps.verifyAccessToken,
      store: answers,
      lock: assistantLock(db),
      siteAssistantIds,
      logger,
      cache: unansweredCache,
      scan: () =>
        scanUnanswered({
          requester: provider.client.requester,
          answers,
          siteAssistantIds,
          phrases: config.UNANSWERED_PHRASES,
        }),
    }),
  );
  // POST /api/calls/websocket: WebSocket calls created with the server's private key.
  app.route(
    '/api/calls/websocket',
    websocketCalls({
      config,
      secrets: deps.secrets,
      verifyAccessToken: deps.verifyAccessToken,
      logger,
      fetch: selfFetch,
      limitStore,
    }),
  );

  const publicConfig = buildPublicConfig(config, {
    authAnonKey: deps.authAnonKey ?? null,
    providerPublicKey: provider.publicKey,
  });
  app.route(
    '/',
    publicConfigRoute(() => publicConfig, {
      verify: deps.verifyAccessToken,
      membersPublicKey: provider.membersPublicKey,
    }),
  );

  // Unknown server paths answer a JSON 404 instead of the SPA.
  app.all('/api/*', (c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));

  // Last: every path the routes above own is passed on to the server's 404, never answered with a page.
  app.route('/', staticSite(config.siteDir, { publicConfig, isServerPath: serverPathsOf(app) }));
  return app;
}
