// GET /api/admin/outbox: the outbox in the dashboard, for admins only.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { outboxPageSchema } from '@engage/http-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMailer } from '../auth/mail.js';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { adminRoutes } from './routes.js';

const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';
const tokens: Record<string, AuthenticatedUser> = {
  'admin-token': { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
};
const verifyAccessToken = async (token: string) => tokens[token] ?? null;

for (const target of testDbTargets()) {
  describe(`GET /api/admin/outbox on ${target.name}`, () => {
    let db: Db;
    const routes = (env: Record<string, string> = {}) =>
      adminRoutes({ config: parseConfig(env), db, logger: createLogger('silent'), verifyAccessToken });
    const get = (path: string, token?: string, env?: Record<string, string>) =>
      routes(env).request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      await db.query(
        `insert into auth_users (id, email, created_at, email_confirmed_at, raw_app_meta_data) values
           ($1, 'admin@example.com', now(), now(), '{"role":"admin"}'), ($2, 'user@example.com', now(), now(), '{}')`,
        [ADMIN_ID, USER_ID],
      );
      const mailer = outboxMailer(db);
      for (let i = 1; i <= 3; i++) {
        await mailer.send({
          userId: null,
          kind: 'recovery',
          to: `user${i}@example.com`,
          subject: 'Reset your password',
          text: `Follow this link.\n\nOr enter this code: 12345${i}\n\nReset password: http://localhost:8787/auth/v1/verify?token=t${i}&type=recovery`,
          html: '<p>…</p>',
        });
        // Distinct creation times, so "newest first" is observable.
        await db.query(
          `update mail_outbox set created_at = now() - ($1 || ' minutes')::interval where to_address = $2`,
          [String(10 - i), `user${i}@example.com`],
        );
      }
    });
    afterAll(() => db?.close());

    it('401 without a token, 403 for a signed-in user who is not an admin', async () => {
      expect((await get('/outbox')).status).toBe(401);
      const forbidden = await get('/outbox', 'user-token');
      expect(forbidden.status).toBe(403);
      expect(JSON.stringify(await forbidden.json())).not.toContain('verify?token');
    });

    it('lists the mails newest first, with their links, bounded by limit', async () => {
      const res = await get('/outbox?limit=2', 'admin-token');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = outboxPageSchema.parse(await res.json());
      expect(page.delivery).toBe('outbox');
      expect(page.mails.map((m) => m.to)).toEqual(['user3@example.com', 'user2@example.com']);
      expect(page.mails[0]?.links).toEqual([
        { label: 'Reset password', href: 'http://localhost:8787/auth/v1/verify?token=t3&type=recovery' },
      ]);
      expect(page.mails[0]?.text).toContain('123453');
      expect((await get('/outbox?limit=101', 'admin-token')).status).toBe(400);
      expect((await get('/outbox?limit=x', 'admin-token')).status).toBe(400);
      const all = outboxPageSchema.parse(await (await get('/outbox', 'admin-token')).json());
      expect(all.mails).toHaveLength(3);
    });

    it('says where mail goes when SMTP_URL is set', async () => {
      const page = await (await get('/outbox', 'admin-token', { SMTP_URL: 'smtp://mail.example:25' })).json();
      expect(page).toMatchObject({ delivery: 'smtp' });
    });
  });
}
