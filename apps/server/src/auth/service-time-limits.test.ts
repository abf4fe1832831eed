import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Mail } from './mail.js';
import { authServiceContext } from './service-test-context.js';
import { createUser } from './user-store.js';

// The links' and codes' time limits, on the service's own clock. The other rules: service.test.ts.
const { db, service, sent, advance, ctx } = authServiceContext();

describe('time limits of links and codes (fake clock)', () => {
  const challengeFor = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
  const tokenOf = (mail: Mail | undefined) =>
    new URL(/https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] as string).searchParams.get('token') as string;
  const local = { ...ctx, ip: '10.9.9.9' };

  it('refuses an email link after 24 hours', async () => {
    await service.signup({ email: 'late@example.com', password: 'not-so-secret1' }, undefined, local);
    const token = tokenOf(sent.filter((m) => m.to === 'late@example.com').at(-1));
    advance(86_400_000 + 1_000);
    await expect(service.verifyOtp({ token_hash: token, type: 'signup' }, local)).rejects.toMatchObject({
      status: 403,
      code: 'otp_expired',
    });
  });

  it('refuses magic-link, invite and email-change codes after 24 hours, a reauthentication nonce too', async () => {
    const codeOf = (to: string) =>
      /\b(\d{6})\b/.exec(sent.filter((m) => m.to === to).at(-1)?.text ?? '')?.[1];
    const user = await createUser(db, {
      email: 'slow-links@example.com',
      password: 'not-so-secret1',
      emailConfirm: true,
    });
    await service.otp({ email: 'slow-links@example.com' }, undefined, local);
    const magic = codeOf('slow-links@example.com') as string;
    await service.admin.inviteUser('slow-invite@example.com');
    const invite = tokenOf(sent.filter((m) => m.to === 'slow-invite@example.com').at(-1));
    const { access_token } = await service.passwordGrant(
      { email: 'slow-links@example.com', password: 'not-so-secret1' },
      local,
    );
    await service.updateUser(access_token, { email: 'slow-new@example.com' }, undefined, local);
    const change = codeOf('slow-new@example.com') as string;
    advance(86_400_000 + 1_000);
    const expired = { status: 403, code: 'otp_expired' };
    await expect(
      service.verifyOtp({ email: 'slow-links@example.com', token: magic, type: 'email' }, local),
    ).rejects.toMatchObject(expired);
    await expect(service.verifyOtp({ token_hash: invite, type: 'invite' }, local)).rejects.toMatchObject(
      expired,
    );
    await expect(
      service.verifyOtp({ email: 'slow-new@example.com', token: change, type: 'email_change' }, local),
    ).rejects.toMatchObject(expired);
    expect((await service.admin.get(user.id)).email).toBe('slow-links@example.com');
  });

  it('refuses an access token once its 3600 s are over (403 bad_jwt)', async () => {
    await createUser(db, { email: 'expiry@example.com', password: 'not-so-secret1', emailConfirm: true });
    const { access_token } = await service.passwordGrant(
      { email: 'expiry@example.com', password: 'not-so-secret1' },
      local,
    );
    expect(await service.getUser(access_token)).toMatchObject({ email: 'expiry@example.com' });
    advance(3_601_000);
    await expect(service.getUser(access_token)).rejects.toMatchObject({
      status: 403,
      code: 'bad_jwt',
      message: expect.stringContaining('expired'),
    });
  });

  it('lets a PKCE code be exchanged within 300 s only', async () => {
    const verifier = 'v'.repeat(64);
    const pkce = { code_challenge: challengeFor(verifier), code_challenge_method: 's256' };
    await service.signup(
      { email: 'pkce-slow@example.com', password: 'not-so-secret1', ...pkce },
      undefined,
      local,
    );
    const token = tokenOf(sent.filter((m) => m.to === 'pkce-slow@example.com').at(-1));
    const redirect = await service.verifyRedirect(
      { token, type: 'signup', redirect_to: 'http://site.test/x' },
      local,
    );
    const code = new URL(redirect).searchParams.get('code');
    advance(300_001);
    await expect(
      service.pkceGrant({ auth_code: code, code_verifier: verifier }, local),
    ).rejects.toMatchObject({
      status: 422,
      code: 'flow_state_expired',
    });
  });
});
