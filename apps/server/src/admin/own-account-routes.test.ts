import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { CONFIRMATION_MISMATCH, ownAccountRoutes } from './own-account-routes.js';

const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';
const users: Record<string, AuthenticatedUser> = {
  admin: { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  user: { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
  halfway: { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {}, hasVerifiedFactor: true },
};

for (const target of testDbTargets()) {
  describe(`DELETE /api/account on ${target.name}`, () => {
    let db: Db;
    let app: ReturnType<typeof ownAccountRoutes>;
    beforeAll(async () => {
      db = await target.open(serverMigrations());
      app = ownAccountRoutes({
        config: parseConfig({}),
        db,
        logger: createLogger('silent'),
        verifyAccessToken: async (token) => users[token] ?? null,
      });
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('delete from auth_users; delete from admin_audit_log');
      await db.query(
        `insert into auth_users (id, email, email_confirmed_at, raw_app_meta_data) values
           ($1, 'admin@example.com', now(), '{"role":"admin"}'), ($2, 'user@example.com', now(), '{}')`,
        [ADMIN_ID, USER_ID],
      );
    });
    const remove = (token: string | null, body: unknown) =>
      app.request('/api/account', {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
    const ids = async () => (await db.query<{ id: string }>('select id from auth_users order by id')).rows;

    it('deletes the caller’s own account once its address is typed again, and audits it', async () => {
      const res = await remove('user', { email: ' User@Example.com ' });
      expect(res.status).toBe(204);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(await ids()).toEqual([{ id: ADMIN_ID }]);
      const { rows } = await db.query('select actor_id, action, target_id from admin_audit_log');
      expect(rows).toEqual([{ actor_id: USER_ID, action: 'account.delete', target_id: USER_ID }]);
    });

    it('deletes nothing without the right address, without a session, or before the second factor', async () => {
      const wrong = await remove('user', { email: 'admin@example.com' });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({
        error: 'validation_failed',
        field: 'email',
        message: CONFIRMATION_MISMATCH,
      });
      const missing = await remove('user', {});
      expect([missing.status, (await missing.json()).field]).toEqual([400, 'email']);
      expect((await remove(null, { email: 'user@example.com' })).status).toBe(401);
      const halfway = await remove('halfway', { email: 'user@example.com' });
      expect([halfway.status, (await halfway.json()).error]).toEqual([403, 'mfa_required']);
      expect(await ids()).toHaveLength(2);
    });

    it('keeps the last administrator', async () => {
      const res = await remove('admin', { email: 'admin@example.com' });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: 'last_admin' });
      expect(await ids()).toHaveLength(2);
    });
  });
}
