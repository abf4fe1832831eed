import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import { describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { bootstrapAdmins } from './bootstrap.js';
import { passwordProblem } from './passwords.js';
import { authServiceContext } from './service-test-context.js';
import { safeRedirect, weakPassword } from './service.js';
import { createUser, updateUserById } from './user-store.js';

// The service's rules for passwords, sign-up, redirects and limits. Time limits: service-time-limits.test.ts.
const { db, service, sent, hashed, advance, ctx } = authServiceContext();

describe('password rules', () => {
  it('accepts 6 to 72 bytes and says why otherwise', () => {
    expect(weakPassword('7x;q!Z')).toBeNull();
    expect(weakPassword('x'.repeat(72))).toBeNull();
    expect(weakPassword('12345')).toMatchObject({
      status: 422,
      code: 'weak_password',
      extra: { weak_password: { reasons: ['length'] } },
    });
    expect(weakPassword('x'.repeat(73))).toMatchObject({ status: 400, code: 'validation_failed' });
    // 72 bytes, not characters: 25 three-byte characters are too long.
    expect(weakPassword('€'.repeat(25))).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^Password cannot be longer than 72 characters \(fewer with accented/),
    });
  });

  it('refuses NUL and other control characters, in the service and in the admin rule alike', async () => {
    for (const bad of ['abc\0defgh', 'tab\there', 'bell\x07ring', 'del\x7fete1']) {
      expect(weakPassword(bad)).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Password cannot contain control characters (such as NUL).',
      });
      expect(passwordProblem(bad)).toBe('Password cannot contain control characters (such as NUL).');
    }
    await expect(
      service.signup({ email: 'nul@example.com', password: 'secret\0secret' }, undefined, {
        ip: '10.7.0.1',
      }),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('NUL') });
    // The admin API (/auth/v1/admin/users and /api/admin) creates and updates through these.
    await expect(
      createUser(db, { email: 'nul@example.com', password: 'secret\0secret' }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: expect.stringContaining('NUL'),
    });
    const user = await createUser(db, { email: 'nul-update@example.com', password: 'not-so-secret1' });
    await expect(updateUserById(db, user.id, { password: 'secret\0secret' })).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('NUL'),
    });
    expect(
      await service.admin.create({ email: 'nul@example.com', password: 'x\u0001yyyyyy' }).catch((e) => e),
    ).toMatchObject({ code: 'validation_failed' });
  });
});

describe('sign-up of an existing address', () => {
  const here = { ip: '10.8.0.1' };
  it('hashes the password as for a new address (same cost), then discards it', async () => {
    await service.signup({ email: 'cost-new@example.com', password: 'first-password' }, undefined, here);
    expect(hashed.at(-1)).toBe('first-password');
    await createUser(db, { email: 'cost-known@example.com', password: 'not-so-secret1', emailConfirm: true });
    hashed.length = 0;
    const lookAlike = await service.signup(
      { email: 'cost-known@example.com', password: 'another-password' },
      undefined,
      here,
    );
    expect(lookAlike).toMatchObject({ identities: [] });
    expect(hashed).toEqual(['another-password']);
    // An unconfirmed address (confirmation mail sent again) costs the same too.
    advance(61_000);
    hashed.length = 0;
    await service.signup({ email: 'cost-new@example.com', password: 'third-password' }, undefined, here);
    expect(hashed).toEqual(['third-password']);
    // Nothing was stored: the known account keeps its password.
    await expect(
      service.passwordGrant({ email: 'cost-known@example.com', password: 'not-so-secret1' }, here),
    ).resolves.toMatchObject({ token_type: 'bearer' });
  });
});

describe("the service's hasher", () => {
  it('hashes every password it stores: admin create and update, generated links, invitations', async () => {
    hashed.length = 0;
    const created = await service.admin.create({
      email: 'hasher-admin@example.com',
      password: 'created-by-admin1',
    });
    await service.admin.update((created as { id: string }).id, { password: 'changed-by-admin1' });
    await service.admin.generateLink({
      type: 'signup',
      email: 'hasher-link@example.com',
      password: 'linked-signup1',
    });
    await service.admin.invite({ email: 'hasher-invite@example.com' }, undefined);
    expect(hashed.slice(0, 3)).toEqual(['created-by-admin1', 'changed-by-admin1', 'linked-signup1']);
    // An invitation sets a random password the invitee never learns, hashed the same way.
    expect(hashed).toHaveLength(4);
  });
});

describe('redirects', () => {
  it('keeps same-origin targets and sends anything else to the site root', () => {
    expect(safeRedirect('http://site.test', 'http://site.test/onboarding?x=1')).toBe(
      'http://site.test/onboarding?x=1',
    );
    expect(safeRedirect('http://site.test', '/kb-import')).toBe('http://site.test/kb-import');
    expect(safeRedirect('http://site.test', 'https://evil.test/')).toBe('http://site.test/');
    expect(safeRedirect('http://site.test', '//evil.test/x')).toBe('http://site.test/');
    expect(safeRedirect('http://site.test', 'javascript:alert(1)')).toBe('http://site.test/');
    expect(safeRedirect('http://site.test', undefined)).toBe('http://site.test/');
  });

  it('treats the loopback names of the listen address as this site, and nothing else on the machine', () => {
    const site = 'http://localhost:8787';
    expect(safeRedirect(site, 'http://127.0.0.1:8787/kb-import')).toBe('http://127.0.0.1:8787/kb-import');
    expect(safeRedirect(site, 'http://[::1]:8787/x')).toBe('http://[::1]:8787/x');
    expect(safeRedirect(site, 'http://127.0.0.1:9999/x')).toBe('http://localhost:8787/');
    expect(safeRedirect(site, 'http://127.0.0.2:8787/x')).toBe('http://localhost:8787/');
    expect(safeRedirect(site, 'https://127.0.0.1:8787/x')).toBe('http://localhost:8787/');
    expect(safeRedirect('https://engage.example', 'https://localhost/x')).toBe('https://engage.example/');
  });
});

describe('auth service limits', () => {
  it('limits signups per IP with 429 over_request_rate_limit', async () => {
    await service.signup({ email: 'a1@example.com', password: 'not-so-secret1' }, undefined, ctx);
    await service.signup({ email: 'a2@example.com', password: 'not-so-secret1' }, undefined, ctx);
    await expect(
      service.signup({ email: 'a3@example.com', password: 'not-so-secret1' }, undefined, ctx),
    ).rejects.toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
    });
    // Another address is its own bucket.
    await service.signup({ email: 'a3@example.com', password: 'not-so-secret1' }, undefined, {
      ...ctx,
      ip: '10.0.0.2',
    });
  });

  it('refuses a second confirmation or recovery mail within the resend interval', async () => {
    // Its own addresses and IP, so it passes alone and in any order.
    const here = { ...ctx, ip: '10.0.0.3' };
    await service.signup({ email: 'resend-1@example.com', password: 'not-so-secret1' }, undefined, here);
    await expect(
      service.signup({ email: 'resend-1@example.com', password: 'not-so-secret1' }, undefined, here),
    ).rejects.toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
    });
    advance(61_000);
    await service.signup({ email: 'resend-1@example.com', password: 'not-so-secret1' }, undefined, here);
    expect(sent.filter((m) => m.to === 'resend-1@example.com' && m.kind === 'confirmation')).toHaveLength(2);
    await createUser(db, { email: 'resend-2@example.com', password: 'not-so-secret1', emailConfirm: true });
    await service.recover({ email: 'resend-2@example.com' }, undefined, here);
    await expect(service.recover({ email: 'resend-2@example.com' }, undefined, here)).rejects.toMatchObject({
      code: 'over_email_send_rate_limit',
    });
    // An unknown address keeps getting {} (no mail).
    expect(await service.recover({ email: 'nobody@example.com' }, undefined, here)).toEqual({});
  });

  it("tells an existing account's owner of a sign-up with their address once per resend interval, as a new address's repeat", async () => {
    const here = { ...ctx, ip: '10.0.0.4' };
    await createUser(db, { email: 'resend-3@example.com', password: 'not-so-secret1', emailConfirm: true });
    const signUp = () =>
      service.signup({ email: 'resend-3@example.com', password: 'another-secret2' }, undefined, here);
    await expect(signUp()).resolves.toMatchObject({ identities: [] });
    await expect(signUp()).rejects.toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    advance(61_000);
    await expect(signUp()).resolves.toMatchObject({ identities: [] });
    expect(sent.filter((m) => m.to === 'resend-3@example.com').map((m) => m.kind)).toEqual([
      'existing_account',
      'existing_account',
    ]);
  });

  it('tells the admins about every signup', async () => {
    const before = sent.length;
    await service.signup({ email: 'newcomer@example.com', password: 'not-so-secret1' }, undefined, {
      ...ctx,
      ip: '10.0.0.4',
    });
    const notices = sent.slice(before).filter((m) => m.kind === 'admin_signup_notification');
    expect(notices.map((m) => m.to)).toEqual(['admin@example.com']);
    expect(notices[0]?.text).toContain('newcomer@example.com');
  });
});

describe('bootstrap admins', () => {
  it('creates the admins only on an empty database', async () => {
    const fresh = await openPglite();
    await migrate(fresh, serverMigrations());
    const first = await bootstrapAdmins(fresh, ['boss@example.com'], undefined);
    expect(first.created).toEqual(['boss@example.com']);
    expect(first.generatedPassword).toMatch(/^[\w-]{16}$/);
    const { rows } = await fresh.query<{
      raw_app_meta_data: { role: string };
      email_confirmed_at: Date | null;
    }>('select raw_app_meta_data, email_confirmed_at from auth_users');
    expect(rows[0]?.raw_app_meta_data.role).toBe('admin');
    expect(rows[0]?.email_confirmed_at).not.toBeNull();
    expect(await bootstrapAdmins(fresh, ['boss@example.com', 'two@example.com'], 'x-password')).toEqual({
      created: [],
    });
    await fresh.close();
  });
});
