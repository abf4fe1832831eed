// GET /api/admin/outbox: the outbox in the dashboard, for admins only, its sign-in links and codes
// masked until an admin reveals a mail (POST /api/admin/outbox/{id}/reveal), which is audited.
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
    const post = (path: string, token?: string, env?: Record<string, string>) =>
      routes(env).request(path, {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });

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

    it('lists the mails newest first, bounded by limit, their links and codes masked', async () => {
      const res = await get('/outbox?limit=2', 'admin-token');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.text();
      expect(body).not.toMatch(/verify\?token|12345\d/);
      const page = outboxPageSchema.parse(JSON.parse(body));
      expect(page.delivery).toBe('outbox');
      expect(page.mails.map((m) => m.to)).toEqual(['user3@example.com', 'user2@example.com']);
      expect(page.mails[0]).toMatchObject({ masked: true, links: [{ label: 'Reset password', href: '' }] });
      expect(page.mails[0]?.text).toContain('Or enter this code: ••••••');
      expect((await get('/outbox?limit=101', 'admin-token')).status).toBe(400);
      expect((await get('/outbox?limit=x', 'admin-token')).status).toBe(400);
      const all = outboxPageSchema.parse(await (await get('/outbox', 'admin-token')).json());
      expect(all.mails).toHaveLength(3);
    });

    it('reveals one mail to an admin, and writes the reveal into the audit log', async () => {
      const [newest] = outboxPageSchema.parse(
        await (await get('/outbox?limit=1', 'admin-token')).json(),
      ).mails;
      const path = `/outbox/${newest?.id}/reveal`;
      expect((await post(path)).status).toBe(401);
      expect((await post(path, 'user-token')).status).toBe(403);
      const res = await post(path, 'admin-token');
      expect(res.status).toBe(200);
      const { mail } = (await res.json()) as { mail: { masked: boolean; text: string; links: unknown[] } };
      expect(mail.masked).toBe(false);
      expect(mail.text).toContain('123453');
      expect(mail.links).toEqual([
        { label: 'Reset password', href: 'http://localhost:8787/auth/v1/verify?token=t3&type=recovery' },
      ]);
      const { entries } = (await (await get('/audit?limit=5', 'admin-token')).json()) as {
        entries: { action: string; actor_email: string; target_email: string; detail: string }[];
      };
      expect(entries[0]).toMatchObject({
        action: 'outbox.reveal',
        actor_email: 'admin@example.com',
        target_email: 'user3@example.com',
        detail: 'Reset your password',
      });
      // An unknown or malformed id: 404, nothing audited.
      expect((await post('/outbox/3f0c6a52-1111-4111-8111-000000000000/reveal', 'admin-token')).status).toBe(
        404,
      );
      expect((await post('/outbox/not-an-id/reveal', 'admin-token')).status).toBe(404);
      const after = (await (await get('/audit?limit=5', 'admin-token')).json()) as { entries: unknown[] };
      expect(after.entries).toHaveLength(entries.length);
    });

    it('shows no mail and reveals none when mail goes through SMTP or the hosted service', async () => {
      const smtp = { SMTP_URL: 'smtp://mail.example:25' };
      const page = await (await get('/outbox', 'admin-token', smtp)).json();
      expect(page).toEqual({ delivery: 'smtp', mails: [] });
      const [any] = outboxPageSchema.parse(await (await get('/outbox', 'admin-token')).json()).mails;
      expect((await post(`/outbox/${any?.id}/reveal`, 'admin-token', smtp)).status).toBe(404);
    });
  });
}
