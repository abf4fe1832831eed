import type { Db } from '@engage/db';
import type { AuditPage, BackupStatus } from '@engage/http-contract';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import { requireAdmin, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { mountAccountActionRoutes } from './account-action-routes.js';
import { createAuditLog, type AuditLog } from './audit.js';
import { createUserAdmin } from './index.js';
import { auditQuery } from './inputs.js';
import { mountAdminOutboxRoute } from './outbox.js';
import { mountAdminPasskeyRoutes } from './passkey-routes.js';
import { createPasskeyAdmin } from './passkeys.js';
import { AdminError, type UserAdmin } from './types.js';
import { mountUserChangeRoutes } from './user-change-routes.js';
import { mountUserReadRoutes } from './user-read-routes.js';

export interface AdminRouteDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verifyAccessToken: VerifyAccessToken;
  /** The embedded auth service: mails invitations and links, ends sessions, bans. */
  auth?: AuthService | null;
  /** The site's public origin: with hosted Supabase, where mailed links lead. */
  siteOrigin?: () => string;
  /** Overrides the implementation chosen from the configuration (tests). */
  userAdmin?: UserAdmin | null;
  /** Users per database page of the CSV export (tests make it small). */
  exportPageSize?: number;
  /** Whether scheduled backups run and the last one (backup/runtime.ts); 'off' when absent. */
  backupStatus?: () => BackupStatus;
}

/** What every group of the dashboard's routes works with. */
export interface AdminRouteContext {
  /** The user administration in use (embedded or hosted); the routes run only when there is one. */
  admin: () => UserAdmin;
  audit: AuditLog;
  logger: Logger;
  /** Users per database page of the CSV export. */
  exportPageSize?: number | undefined;
}

/**
 * /api/admin: the dashboard's API. Every route needs a valid access token of a user whose
 * app_metadata.role is 'admin' (401 / 403 otherwise). The service credential, when hosted Supabase
 * is used, stays inside the UserAdmin: no response or log line carries it.
 */
export function adminRoutes(deps: AdminRouteDeps): Hono<AuthEnv> {
  const users =
    deps.userAdmin === undefined
      ? createUserAdmin(deps.config, deps.db, { auth: deps.auth, siteOrigin: deps.siteOrigin })
      : deps.userAdmin;
  const audit: AuditLog = createAuditLog(deps.db);
  const app = new Hono<AuthEnv>();

  // Answers carry account data: never kept by a browser or a shared cache, errors included.
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('*', requireAdmin(deps.verifyAccessToken, { requireMfa: deps.config.ADMIN_REQUIRE_MFA }));
  // Before the user-admin check: backups concern the data, whichever auth backend holds the users.
  app.get('/backups', (c) => c.json<BackupStatus>(deps.backupStatus?.() ?? { mode: 'off', last: null }));
  app.use('*', async (c, next) => {
    if (!users)
      return c.json(
        {
          error: 'admin_unavailable',
          message:
            'User administration needs SUPABASE_SERVICE_ROLE_KEY on the server when hosted Supabase is used.',
        },
        503,
      );
    await next();
    return undefined;
  });
  app.onError((error, c) => {
    if (error instanceof AdminError)
      return c.json({ error: error.code, message: error.message }, error.status as 400);
    // The auth middleware's refusals (401/403) carry their own answer, mounted or tested alone.
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  });
  const admin = () => users as UserAdmin;

  const ctx: AdminRouteContext = { admin, audit, logger: deps.logger, exportPageSize: deps.exportPageSize };
  mountUserReadRoutes(app, ctx);
  mountUserChangeRoutes(app, ctx);

  mountAccountActionRoutes(app, ctx);

  mountAdminPasskeyRoutes(app, {
    passkeys: createPasskeyAdmin(deps.config, deps.auth),
    audit,
    logger: deps.logger,
    emailOf: async (id) => (await admin().getUser(id))?.email ?? null,
  });

  app.get('/audit', async (c) => {
    const parsed = readQuery(c, auditQuery);
    if (!parsed.ok) return parsed.response;
    return c.json({ entries: await audit.recent(parsed.data) } satisfies AuditPage);
  });

  mountAdminOutboxRoute(app, { config: deps.config, db: deps.db, audit });

  return app;
}
