import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { adminRoutes } from './routes.js';

/** The /api/admin route tests: two users (an admin and a user) in a fresh database for each test. */

export const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
export const USER_ID = '22222222-2222-4222-8222-222222222222';
export const OTHER_ID = '33333333-3333-4333-8333-333333333333';
export const tokens: Record<string, AuthenticatedUser> = {
  'admin-token': { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
};
export const verifyAccessToken = async (token: string) => tokens[token] ?? null;

/** Registers the hooks of one database target and answers what its tests call. */
export function adminTestContext(target: TestDbTarget) {
  const t = {
    db: undefined as unknown as Db,
    app: undefined as unknown as ReturnType<typeof adminRoutes>,
    logLines: [] as string[],
  };

  const call = (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; raw?: string } = {},
  ) =>
    t.app.request(path, {
      method,
      headers: {
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined || options.raw !== undefined
          ? { 'Content-Type': 'application/json' }
          : {}),
      },
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  const asAdmin = (method: string, path: string, body?: unknown) =>
    call(method, path, { token: 'admin-token', body });
  /** The routes as USER_ID sees them, an admin too: for two admins acting at once. */
  const routesOfSecondAdmin = () =>
    adminRoutes({
      config: parseConfig({}),
      db: t.db,
      logger: createLogger('silent'),
      verifyAccessToken: async () => ({
        ...tokens['admin-token']!,
        id: USER_ID,
        email: 'user@example.com',
      }),
    });

  beforeAll(async () => {
    t.db = await target.open(serverMigrations());
    t.app = adminRoutes({
      config: parseConfig({}),
      db: t.db,
      logger: createLogger('debug', (line) => t.logLines.push(line)),
      verifyAccessToken,
    });
  });
  afterAll(() => t.db?.close());
  beforeEach(async () => {
    await t.db.exec('delete from auth_users; delete from admin_audit_log');
    await t.db.query(
      `insert into auth_users (id, email, created_at, email_confirmed_at, raw_app_meta_data) values
         ($1, 'admin@example.com', now() - interval '3 days', now() - interval '3 days', '{"role":"admin"}'),
         ($2, 'user@example.com', now() - interval '3 days', now() - interval '3 days', '{}')`,
      [ADMIN_ID, USER_ID],
    );
  });
  return { t, call, asAdmin, routesOfSecondAdmin };
}
