// Test support shared by the admin-actions-*.test.ts suites: /api/admin over the embedded auth service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createAuthRuntime } from '../auth/embedded.js';
import { late } from '../auth/http/auth-harness.js';
import { NO_LIMITS } from '../auth/rate-limit.js';
import type { AuthService } from '../auth/service.js';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { openSecretStore } from '../platform/secrets.js';
import { adminRoutes } from './routes.js';

export const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
export const USER_ID = '22222222-2222-4222-8222-222222222222';
export const UNKNOWN_ID = '33333333-3333-4333-8333-333333333333';
export const PASSWORD = 'user-secret-pass';
export const tokens: Record<string, AuthenticatedUser> = {
  'admin-token': { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
};
export const ctx = { ip: '127.0.0.1' };

/** Registers the hooks of one database target (an admin and a user before each test) and its helpers. */
export function adminActionsContext(target: TestDbTarget) {
  let openDb: Db | undefined;
  let dir: string;
  let openService: AuthService | undefined;
  let app: ReturnType<typeof adminRoutes>;
  const db = late(() => openDb as Db);
  const service = late(() => openService as AuthService);

  const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
    app.request(path, {
      method,
      headers: {
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const asAdmin = (method: string, path: string, body?: unknown) =>
    call(method, path, { token: 'admin-token', body });

  const audit = async () =>
    (
      await db.query<{
        action: string;
        actor_id: string;
        target_email: string | null;
        detail: string | null;
      }>('select action, actor_id, target_email, detail from admin_audit_log order by id')
    ).rows;
  const mailsTo = async (address: string) =>
    (
      await db.query<{ kind: string; text_body: string }>(
        'select kind, text_body from mail_outbox where to_address = $1 order by created_at',
        [address],
      )
    ).rows;
  const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'engage-admin-actions-'));
    openDb = await target.open(serverMigrations());
    const config = parseConfig({ DATA_DIR: dir, SITE_DIR: dir, PUBLIC_URL: 'https://site.example' });
    const runtime = createAuthRuntime({
      config,
      db: openDb,
      secrets: openSecretStore(dir),
      rateLimits: NO_LIMITS,
      emailResendIntervalSeconds: 60,
    });
    openService = runtime.service as AuthService;
    app = adminRoutes({
      config,
      db: openDb,
      logger: createLogger('silent'),
      verifyAccessToken: async (token) => tokens[token] ?? null,
      auth: openService,
      exportPageSize: 2,
    });
  });
  afterAll(async () => {
    await openDb?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.exec('delete from auth_users; delete from admin_audit_log; delete from mail_outbox');
    await service.admin.create({
      id: ADMIN_ID,
      email: 'admin@example.com',
      password: 'admin-secret-pass',
      email_confirm: true,
      app_metadata: { role: 'admin' },
    });
    await service.admin.create({
      id: USER_ID,
      email: 'user@example.com',
      password: PASSWORD,
      email_confirm: true,
    });
  });
  return { db, service, call, asAdmin, audit, mailsTo, linkIn };
}
