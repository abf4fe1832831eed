// The account actions of /api/admin: sign-out everywhere, bans and the details panel.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { ADMIN_ID, PASSWORD, UNKNOWN_ID, USER_ID, adminActionsContext, ctx } from './actions-harness.js';

for (const target of testDbTargets()) {
  describe(`/api/admin account actions on ${target.name}`, () => {
    const { db, service, asAdmin, audit } = adminActionsContext(target);

    it('POST /users/:id/sign-out ends every session and refresh token of that user only, and audits', async () => {
      const first = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const second = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const admins = await service.passwordGrant(
        { email: 'admin@example.com', password: 'admin-secret-pass' },
        ctx,
      );

      const res = await asAdmin('POST', `/users/${USER_ID}/sign-out`);
      expect(res.status).toBe(200);
      for (const session of [first, second])
        await expect(
          service.refreshGrant({ refresh_token: session.refresh_token }, ctx),
        ).rejects.toMatchObject({ status: 400 });
      // The admin's own session is untouched.
      await expect(service.refreshGrant({ refresh_token: admins.refresh_token }, ctx)).resolves.toMatchObject(
        {
          access_token: expect.any(String),
        },
      );
      expect(await audit()).toEqual([
        { action: 'user.sign_out', actor_id: ADMIN_ID, target_email: 'user@example.com', detail: null },
      ]);
      expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/sign-out`)).status).toBe(404);
      expect((await asAdmin('POST', '/users/nope/sign-out')).status).toBe(400);
    });

    it('POST /users/:id/ban bans (sign-in answers user_banned, sessions end), none lifts it, audits the duration', async () => {
      const session = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: '24h' });
      expect(res.status).toBe(200);
      const { user } = await res.json();
      const until = new Date(user.banned_until).getTime();
      expect(until).toBeGreaterThan(Date.now() + 23 * 3600_000);
      await expect(
        service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx),
      ).rejects.toMatchObject({ status: 400, code: 'user_banned' });
      await expect(service.refreshGrant({ refresh_token: session.refresh_token }, ctx)).rejects.toMatchObject(
        {
          status: 400,
        },
      );
      // The list shows the ban.
      const list = await (await asAdmin('GET', '/users?search=user@')).json();
      expect(list.users[0]).toMatchObject({ id: USER_ID, banned_until: user.banned_until });

      const lifted = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: 'none' });
      expect(lifted.status).toBe(200);
      expect((await lifted.json()).user.banned_until).toBeNull();
      await expect(
        service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx),
      ).resolves.toMatchObject({ access_token: expect.any(String) });
      expect((await audit()).map((e) => [e.action, e.target_email, e.detail])).toEqual([
        ['user.ban', 'user@example.com', '24h'],
        ['user.ban', 'user@example.com', 'none'],
      ]);
    });

    it('POST /users/:id/ban: 400 for a bad duration or the caller themselves, 404 for an unknown user', async () => {
      for (const duration of ['tomorrow', '24', '-1h', '1d', '']) {
        const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration });
        expect(res.status, duration).toBe(400);
        expect(await res.json()).toMatchObject({ message: expect.any(String) });
      }
      expect((await asAdmin('POST', `/users/${USER_ID}/ban`, {})).status).toBe(400);
      expect((await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: 'x'.repeat(33) })).status).toBe(400);
      // Past the documented limit (Go's longest duration): 400 saying so, not 500 "Invalid time value".
      for (const duration of ['99999999999h', '2562048h', '9'.repeat(30) + 'h']) {
        const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration });
        expect(res.status, duration).toBe(400);
        expect(await res.json()).toMatchObject({
          error: 'invalid_duration',
          message: expect.stringMatching(/at most 2562047h/),
        });
      }
      const self = await asAdmin('POST', `/users/${ADMIN_ID}/ban`, { duration: '24h' });
      expect(self.status).toBe(400);
      expect(await self.json()).toMatchObject({ error: 'cannot_ban_self' });
      expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/ban`, { duration: '1h' })).status).toBe(404);
      expect(await audit()).toEqual([]);
      const { rows } = await db.query('select 1 from auth_users where banned_until is not null');
      expect(rows).toEqual([]);
    });

    it('GET /users/:id answers the details panel: factors, metadata, ban; 404 and 400 otherwise', async () => {
      await db.query(`update auth_users set raw_user_meta_data = '{"name":"Ann"}' where id = $1`, [USER_ID]);
      await db.query(
        `insert into auth_factors (user_id, friendly_name, factor_type, status, secret)
         values ($1, 'Phone app', 'totp', 'verified', 'JBSWY3DPEHPK3PXP')`,
        [USER_ID],
      );
      const res = await asAdmin('GET', `/users/${USER_ID}`);
      expect(res.status).toBe(200);
      const { user } = await res.json();
      expect(user).toMatchObject({
        id: USER_ID,
        email: 'user@example.com',
        role: 'user',
        banned_until: null,
        user_metadata: { name: 'Ann' },
        app_metadata: { provider: 'email' },
        factors: [{ factor_type: 'totp', status: 'verified', friendly_name: 'Phone app' }],
      });
      expect(JSON.stringify(user)).not.toContain('JBSWY3DPEHPK3PXP');
      expect((await asAdmin('GET', `/users/${UNKNOWN_ID}`)).status).toBe(404);
      expect((await asAdmin('GET', '/users/nope')).status).toBe(400);
    });
  });
}
