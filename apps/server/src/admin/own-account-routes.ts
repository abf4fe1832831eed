// DELETE /api/account: a signed-in user deletes their own account, confirming with its address typed
// again. Through the same user administration as the dashboard's delete, so the same rule holds: the
// last administrator cannot go (409 `last_admin`). Recorded in the admin audit log.
import type { Db } from '@engage/db';
import { ACCOUNT_PATH, deleteAccountBodySchema } from '@engage/http-contract';
import { Hono } from 'hono';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import { requireUser, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { createAuditLog } from './audit.js';
import { createUserAdmin } from './index.js';
import { AdminError, type UserAdmin } from './types.js';

export interface OwnAccountDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verifyAccessToken: VerifyAccessToken;
  auth?: AuthService | null;
  siteOrigin?: () => string;
  /** Overrides the implementation chosen from the configuration (tests). */
  userAdmin?: UserAdmin | null;
}

export const CONFIRMATION_MISMATCH = 'Type your account’s email address exactly to confirm.';

export function ownAccountRoutes(deps: OwnAccountDeps): Hono<AuthEnv> {
  const users =
    deps.userAdmin === undefined
      ? createUserAdmin(deps.config, deps.db, { auth: deps.auth, siteOrigin: deps.siteOrigin })
      : deps.userAdmin;
  const audit = createAuditLog(deps.db);
  const app = new Hono<AuthEnv>();
  app.use(ACCOUNT_PATH, async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  // A second factor, when the account has one, must have been used in this session.
  app.delete(ACCOUNT_PATH, requireUser(deps.verifyAccessToken), async (c) => {
    const body = await readJsonBody(c, deleteAccountBodySchema);
    if (!body.ok) return body.response;
    const user = c.get('user');
    if (!user.email || body.data.email.toLowerCase() !== user.email.toLowerCase())
      return c.json({ error: 'validation_failed', field: 'email', message: CONFIRMATION_MISMATCH }, 400);
    if (!users)
      return c.json(
        {
          error: 'admin_unavailable',
          message:
            'Deleting an account needs SUPABASE_SERVICE_ROLE_KEY on the server when hosted Supabase is used.',
        },
        503,
      );
    try {
      const deleted = await users.deleteUser(user.id);
      await audit.record(user, 'account.delete', [{ id: deleted.id, email: deleted.email }]);
      deps.logger.info('a user deleted their own account', { user: user.id });
      return c.body(null, 204);
    } catch (error) {
      if (error instanceof AdminError)
        return c.json({ error: error.code, message: error.message }, error.status as 404 | 409);
      throw error;
    }
  });
  return app;
}
