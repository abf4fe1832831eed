// The account actions of /api/admin: the admin-only guard, invites, recovery and sign-in links.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { ADMIN_ID, UNKNOWN_ID, USER_ID, adminActionsContext } from './actions-harness.js';

for (const target of testDbTargets()) {
  describe(`/api/admin account actions on ${target.name}`, () => {
    const { db, call, asAdmin, audit, mailsTo, linkIn } = adminActionsContext(target);

    const routes: [string, string, unknown?][] = [
      ['POST', '/users/invite', { email: 'new@example.com' }],
      ['POST', `/users/${USER_ID}/recovery`],
      ['POST', `/users/${USER_ID}/magic-link`],
      ['POST', `/users/${USER_ID}/sign-out`],
      ['POST', `/users/${USER_ID}/ban`, { duration: '24h' }],
      ['GET', `/users/${USER_ID}`],
      ['GET', '/users.csv'],
    ];
    for (const [method, path, body] of routes) {
      it(`${method} ${path}: 401 without a valid token, 403 for a non-admin, no-store, nothing done`, async () => {
        expect((await call(method, path, { body })).status).toBe(401);
        expect((await call(method, path, { body, token: 'forged' })).status).toBe(401);
        const forbidden = await call(method, path, { body, token: 'user-token' });
        expect(forbidden.status).toBe(403);
        expect(forbidden.headers.get('cache-control')).toBe('no-store');
        expect(await audit()).toEqual([]);
        expect((await db.query('select 1 from mail_outbox')).rows).toEqual([]);
        const { rows } = await db.query<{ n: number }>(
          'select count(*)::int as n from auth_users where banned_until is not null',
        );
        expect(rows[0]?.n).toBe(0);
      });
    }

    it('POST /users/invite creates an unconfirmed user, mails a link to the accept-invite page, audits; 201', async () => {
      const res = await asAdmin('POST', '/users/invite', { email: ' New.Person@Example.com ' });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { user } = await res.json();
      expect(user).toMatchObject({ email: 'new.person@example.com', email_confirmed_at: null, role: 'user' });
      const mails = await mailsTo('new.person@example.com');
      expect(mails.map((m) => m.kind)).toEqual(['invite']);
      const link = new URL(linkIn(mails[0]!.text_body));
      expect(link.searchParams.get('type')).toBe('invite');
      expect(link.searchParams.get('redirect_to')).toBe('https://site.example/accept-invite');
      expect(await audit()).toEqual([
        { action: 'user.invite', actor_id: ADMIN_ID, target_email: 'new.person@example.com', detail: null },
      ]);
    });

    it('POST /users/invite: 422 email_exists for a confirmed address, 400 for a bad or missing email', async () => {
      const taken = await asAdmin('POST', '/users/invite', { email: 'USER@example.com' });
      expect(taken.status).toBe(422);
      expect(await taken.json()).toMatchObject({ error: 'email_exists' });
      for (const body of [{ email: 'not-an-address' }, {}, [], { email: 'a'.repeat(320) + '@x.io' }]) {
        const bad = await asAdmin('POST', '/users/invite', body);
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ error: 'validation_failed', message: expect.any(String) });
      }
      expect(await audit()).toEqual([]);
    });

    for (const [route, kind, action] of [
      ['recovery', 'recovery', 'user.recovery'],
      ['magic-link', 'magic_link', 'user.magic_link'],
    ] as const) {
      it(`POST /users/:id/${route} mails the link (202) and audits; 404, 400 and 429 otherwise`, async () => {
        const res = await asAdmin('POST', `/users/${USER_ID}/${route}`);
        expect(res.status).toBe(202);
        expect((await res.json()).user).toMatchObject({ id: USER_ID, email: 'user@example.com' });
        const mails = await mailsTo('user@example.com');
        expect(mails.map((m) => m.kind)).toEqual([kind]);
        expect(linkIn(mails[0]!.text_body)).toMatch(/^https:\/\/site\.example\/auth\/v1\/verify\?/);
        expect(await audit()).toEqual([
          { action, actor_id: ADMIN_ID, target_email: 'user@example.com', detail: null },
        ]);

        // GoTrue's resend interval holds for an admin too: a clear 429, no second mail, no entry.
        const again = await asAdmin('POST', `/users/${USER_ID}/${route}`);
        expect(again.status).toBe(429);
        expect(await again.json()).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
        expect(await mailsTo('user@example.com')).toHaveLength(1);

        expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/${route}`)).status).toBe(404);
        const bad = await asAdmin('POST', `/users/not-a-uuid/${route}`);
        expect(bad.status).toBe(400);
        expect(await audit()).toHaveLength(1);
      });
    }
  });
}
