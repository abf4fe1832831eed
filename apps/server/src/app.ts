import type { Db } from '@engage/db';
import type { BackupStatus } from '@engage/http-contract';
import type { LimitStore } from '@engage/rate-limit';
import type { RoomUpgrade } from '@engage/vapi-emulator';
import { Hono } from 'hono';
import { adminFeature } from './admin/feature.js';
import { ownAccountRoutes } from './admin/own-account-routes.js';
import { authFeature } from './auth/http/feature.js';
import type { AuthService } from './auth/service.js';
import { conversationsFeature } from './conversations/feature.js';
import { limitStoreFor } from './db/limit-store.js';
import type { Config } from './platform/config.js';
import { healthRoutes } from './platform/health.js';
import { errorBody, useRequestEdge } from './platform/http/edge.js';
import type { VerifyAccessToken } from './platform/http/require-auth.js';
import type { Logger } from './platform/logger.js';
import { countingRefusals, createMetrics, noMetrics } from './platform/metrics.js';
import { createPublicOrigin, type PublicOrigin } from './platform/public-origin.js';
import type { SecretStore } from './platform/secrets.js';
import { providerFeature } from './provider/feature.js';
import { pageContentRoute } from './site/page-content.js';
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

/** The newest backup as the metrics report it, from the dashboard's backup status. */
function lastBackupOf(status: () => BackupStatus): () => { at: number; bytes: number } | null {
  return () => {
    const now = status();
    return now.mode === 'scheduled' && now.last
      ? { at: Date.parse(now.last.at), bytes: now.last.bytes }
      : null;
  };
}

/**
 * Composes the whole server: the request edge, then each feature at its path, then the built site.
 * Kept apart from `serve()` so tests drive it with `app.request()`.
 */
export function createApp(deps: AppDeps): Hono {
  const { config, db, logger } = deps;
  // Read by the routes that build links or stored URLs (auth mail, the provider's file URLs).
  const publicOrigin = deps.publicOrigin ?? createPublicOrigin(config).get;
  // GET /metrics and what it counts exist only with METRICS_TOKEN; the features report to a no-op otherwise.
  const metrics = config.METRICS_TOKEN ? createMetrics(config.METRICS_TOKEN) : null;
  const sink = metrics ?? noMetrics;
  const store = deps.limitStore ?? limitStoreFor(db);
  // Refusals are counted only when someone reads them: no wrapper on every limited request otherwise.
  const limitStore = metrics ? countingRefusals(store, metrics) : store;
  const app = new Hono();
  useRequestEdge(app, { config, logger, publicOrigin, metrics });

  // Liveness (/healthz) and readiness (/readyz: the database answers, migrations done).
  app.route('/', healthRoutes({ db, migrationIds: allMigrations().map((m) => m.id) }));

  if (config.embeddedAuth && deps.auth) {
    const auth = authFeature({ config, db, logger, secrets: deps.secrets, service: deps.auth, publicOrigin });
    app.route('/auth/v1', auth.api);
    app.route('/_mail', auth.outbox);
  }

  app.route(
    '/api/admin',
    adminFeature({
      config,
      db,
      logger,
      verifyAccessToken: deps.verifyAccessToken,
      auth: deps.auth,
      publicOrigin,
      ...(deps.backupStatus && { backupStatus: deps.backupStatus }),
    }),
  );

  app.route(
    '/',
    ownAccountRoutes({
      config,
      db,
      logger,
      verifyAccessToken: deps.verifyAccessToken,
      auth: deps.auth,
      siteOrigin: publicOrigin,
    }),
  );

  // The embedded provider at /provider (without VAPI_PRIVATE_KEY) and /api/provider for operators.
  // Both reach the emulator through this app's own handler, so in-process requests meet its middleware.
  const provider = providerFeature({
    config,
    db,
    logger,
    secrets: deps.secrets,
    verify: deps.verifyAccessToken,
    publicOrigin,
    limitStore,
    fetch: async (request) => app.fetch(request),
    onCallStarted: sink.websocketCallStarted,
    ...(deps.upgradeWebSocket && { upgradeWebSocket: deps.upgradeWebSocket }),
  });
  if (provider.emulator) app.route('/provider', provider.emulator);
  const conversations = conversationsFeature({
    config,
    db,
    logger,
    verify: deps.verifyAccessToken,
    provider: provider.client,
    limitStore,
  });
  app.use('/api/provider/*', conversations.invalidateOnDelete);
  app.route('/api/provider', provider.proxy);
  app.route('/api/conversations', conversations.routes);
  app.route('/api/answer-requests', conversations.answerRequests);
  app.route('/api/calls/websocket', provider.websocketCalls);

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

  app.route('/', pageContentRoute(config.siteDir, { verify: deps.verifyAccessToken, publicConfig }));

  if (metrics)
    app.route(
      '/',
      metrics.routes({
        callRooms: provider.openCallRooms,
        ...(db.poolStats && { pool: db.poolStats }),
        ...(deps.backupStatus && { lastBackup: lastBackupOf(deps.backupStatus) }),
      }),
    );

  // Unknown server paths answer a JSON 404 instead of the SPA.
  app.all('/api/*', (c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));

  // Last: every path the routes above own is passed on to the server's 404, never answered with a page.
  app.route('/', staticSite(config.siteDir, { publicConfig, isServerPath: serverPathsOf(app) }));
  return app;
}
