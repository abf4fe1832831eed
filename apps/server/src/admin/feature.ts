import type { Db } from '@engage/db';
import type { BackupStatus } from '@engage/http-contract';
import { Hono } from 'hono';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import type { AuthEnv, VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { PublicOrigin } from '../platform/public-origin.js';
import { adminEmbedRoutes } from './embed-routes.js';
import { adminOAuthClientRoutes } from './oauth-client-routes.js';
import { adminRoutes } from './routes.js';

export interface AdminFeatureDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verifyAccessToken: VerifyAccessToken;
  /** The embedded auth service; absent with hosted Supabase. */
  auth?: AuthService | null;
  publicOrigin: PublicOrigin;
  backupStatus?: () => BackupStatus;
}

/**
 * `/api/admin`, the dashboard's API, admins only (checked on the server): the OAuth clients of the
 * embedded auth, the "Embed" panel, and user administration (admin/routes.ts).
 */
export function adminFeature(deps: AdminFeatureDeps): Hono<AuthEnv> {
  const { config, logger, verifyAccessToken } = deps;
  const admin = new Hono<AuthEnv>();
  // First: user administration's checks below are not the OAuth clients' (they need the embedded auth).
  if (config.embeddedAuth && deps.auth)
    admin.route(
      '/oauth-clients',
      adminOAuthClientRoutes({
        service: deps.auth,
        verifyAccessToken,
        logger,
        requireMfa: config.ADMIN_REQUIRE_MFA,
      }),
    );
  admin.route('/embed', adminEmbedRoutes({ config, verifyAccessToken, siteOrigin: deps.publicOrigin }));
  admin.route(
    '/',
    adminRoutes({
      config,
      db: deps.db,
      logger,
      verifyAccessToken,
      auth: deps.auth,
      siteOrigin: deps.publicOrigin,
      ...(deps.backupStatus && { backupStatus: deps.backupStatus }),
    }),
  );
  return admin;
}
