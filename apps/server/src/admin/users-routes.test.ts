import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { adminTestContext, ADMIN_ID, USER_ID } from './routes-harness.js';

for (const target of testDbTargets()) {
  describe(`/api/admin users on ${target.name}`, () => {
    const { t, call, asAdmin } = adminTestContext(target);

    it('GET /users lists, searches, filters and pages', async () => {
      await t.db.query(
        `insert into auth_users (email, created_at) select 'bulk' || g || '@Example.org', now() - make_interval(secs => g)
           from generate_series(1, 30) g`,
      );
      const first = await asAdmin('GET', '/users?status=unverified&limit=20');
      expect(first.status).toBe(200);
      const page1 = await first.json();
      expect(page1.total).toBe(30);
      expect(page1.users).toHaveLength(20);
      expect(page1.users[0]).toEqual({
        id: expect.any(String),
        email: 'bulk1@Example.org',
        created_at: expect.stringMatching(/Z$/),
        email_confirmed_at: null,
        last_sign_in_at: null,
        is_admin: false,
        role: 'user',
        banned_until: null,
      });
      const page2 = await (
        await asAdmin('GET', `/users?status=unverified&limit=20&cursor=${page1.nextCursor}`)
      ).json();
      expect(page2.users).toHaveLength(10);
      expect(page2.nextCursor).toBeNull();
      const search = await (await asAdmin('GET', '/users?search=BULK2&status=all')).json();
      expect(search.users.map((u: { email: string }) => u.email)).toEqual([
        'bulk2@Example.org',
        'bulk20@Example.org',
        'bulk21@Example.org',
        'bulk22@Example.org',
        'bulk23@Example.org',
        'bulk24@Example.org',
        'bulk25@Example.org',
        'bulk26@Example.org',
        'bulk27@Example.org',
        'bulk28@Example.org',
        'bulk29@Example.org',
      ]);
      const verified = await (await asAdmin('GET', '/users?status=verified')).json();
      expect(verified.users.find((u: { email: string }) => u.email === 'admin@example.com').is_admin).toBe(
        true,
      );
    });

    it('GET /users answers 400 for bad parameters', async () => {
      for (const query of [
        'status=maybe',
        'limit=0',
        'limit=201',
        'limit=ten',
        'cursor=garbage',
        `search=${'a'.repeat(300)}`,
      ]) {
        const res = await asAdmin('GET', `/users?${query}`);
        expect(res.status, query).toBe(400);
        expect((await res.json()).message, query).toEqual(expect.any(String));
      }
    });

    it('GET /stats counts in SQL and gives sign-ups per day', async () => {
      await t.db.query(`insert into auth_users (email) values ('p1@x.io'), ('p2@x.io')`);
      const res = await asAdmin('GET', '/stats?days=3');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ total: 4, verified: 2, pending: 2 });
      expect(body.signupsPerDay).toHaveLength(3);
      expect(body.signupsPerDay[2].count).toBe(2);
      expect((await asAdmin('GET', '/stats?days=0')).status).toBe(400);
      expect((await asAdmin('GET', '/stats?days=400')).status).toBe(400);
    });

    it('POST /users creates a confirmed user and records it in the audit log', async () => {
      const res = await asAdmin('POST', '/users', {
        email: ' New.Person@Example.com ',
        password: 'secret-pass',
      });
      expect(res.status).toBe(201);
      const { user } = await res.json();
      expect(user.email).toBe('new.person@example.com');
      expect(user.email_confirmed_at).not.toBeNull();
      const audit = await (await asAdmin('GET', '/audit')).json();
      expect(audit.entries).toEqual([
        expect.objectContaining({
          actor_id: ADMIN_ID,
          actor_email: 'admin@example.com',
          action: 'user.create',
          target_id: user.id,
          target_email: 'new.person@example.com',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        }),
      ]);
      expect(t.logLines.join('\n')).not.toContain('secret-pass');
    });

    it('POST /users: 400 when email or password is missing, 422 for a taken email or a weak password', async () => {
      for (const body of [
        {},
        { email: 'a@x.io' },
        { password: 'secret-pass' },
        { email: '', password: '' },
        null,
        [1],
      ]) {
        const res = await asAdmin('POST', '/users', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.json()).toEqual({
          error: 'validation_failed',
          message: 'Please provide both email and password',
        });
      }
      const notJson = await call('POST', '/users', { token: 'admin-token', raw: '{oops' });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: 'invalid_json' });
      const badEmail = await asAdmin('POST', '/users', { email: 'not-an-email', password: 'secret-pass' });
      expect(badEmail.status).toBe(400);
      const taken = await asAdmin('POST', '/users', { email: 'USER@example.com', password: 'secret-pass' });
      expect(taken.status).toBe(422);
      expect(await taken.json()).toMatchObject({ error: 'email_exists' });
      const weak = await asAdmin('POST', '/users', { email: 'weak@x.io', password: '123' });
      expect(weak.status).toBe(422);
      expect(await weak.json()).toMatchObject({
        error: 'weak_password',
        message: expect.stringContaining('6'),
        reasons: ['length'],
      });
      // A common password is refused as GoTrue does, saying why.
      const common = await asAdmin('POST', '/users', { email: 'common@x.io', password: 'Password1' });
      expect(common.status).toBe(422);
      expect(await common.json()).toEqual({
        error: 'weak_password',
        message: 'Password is known to be weak and easy to guess, please choose a different one.',
        reasons: ['pwned'],
      });
      // A password of a bad format is a 400, as in the auth service.
      const nul = await asAdmin('POST', '/users', { email: 'nul@x.io', password: 'secret\0secret' });
      expect(nul.status).toBe(400);
    });

    it('DELETE /users/:id deletes, refuses self-deletion, 404s an unknown id and 400s a bad one', async () => {
      const self = await asAdmin('DELETE', `/users/${ADMIN_ID}`);
      expect(self.status).toBe(400);
      expect(await self.json()).toMatchObject({ error: 'cannot_delete_self' });
      const ok = await asAdmin('DELETE', `/users/${USER_ID}`);
      expect(ok.status).toBe(200);
      expect((await ok.json()).user.email).toBe('user@example.com');
      expect((await asAdmin('DELETE', `/users/${USER_ID}`)).status).toBe(404);
      expect((await asAdmin('DELETE', '/users/not-a-uuid')).status).toBe(400);
      const audit = await (await asAdmin('GET', '/audit')).json();
      expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(['user.delete']);
    });

    it('POST /users/verify confirms only unverified users among the ids and returns those ids', async () => {
      const { rows } = await t.db.query<{ id: string }>(
        `insert into auth_users (email) values ('p1@x.io'), ('p2@x.io'), ('p3@x.io') returning id`,
      );
      const [p1, p2] = rows.map((r) => r.id);
      const res = await asAdmin('POST', '/users/verify', { ids: [p1, p2, USER_ID] });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.verified.sort()).toEqual([p1, p2].sort());
      const stats = await (await asAdmin('GET', '/stats')).json();
      expect(stats).toMatchObject({ total: 5, verified: 4, pending: 1 });
      const audit = await (await asAdmin('GET', '/audit?limit=10')).json();
      expect(audit.entries).toHaveLength(2);
      for (const body of [{}, { ids: [] }, { ids: ['nope'] }, { ids: 'x' }])
        expect((await asAdmin('POST', '/users/verify', body)).status, JSON.stringify(body)).toBe(400);
    });

    it('GET /audit pages backwards and validates its parameters', async () => {
      for (let i = 0; i < 3; i++)
        await asAdmin('POST', '/users', { email: `a${i}@x.io`, password: 'secret-pass' });
      const first = await (await asAdmin('GET', '/audit?limit=2')).json();
      expect(first.entries.map((e: { target_email: string }) => e.target_email)).toEqual([
        'a2@x.io',
        'a1@x.io',
      ]);
      const next = await (await asAdmin('GET', `/audit?limit=2&before=${first.entries[1].id}`)).json();
      expect(next.entries.map((e: { target_email: string }) => e.target_email)).toEqual(['a0@x.io']);
      expect((await asAdmin('GET', '/audit?limit=-1')).status).toBe(400);
    });
  });
}
