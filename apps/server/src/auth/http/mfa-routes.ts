// GoTrue's second factors and passkeys under /auth/v1: a user Bearer for each, except a passkey
// sign-in, which needs no session.
import type { Hono } from 'hono';
import { bearerToken } from '../../platform/bearer-token.js';
import { clientIp } from '../../platform/client-address.js';
import type { AuthService } from '../service.js';
import { jsonBody, requestContext as ctx } from './gotrue-io.js';

/** `/factors`: TOTP and WebAuthn factors (not for anonymous users, as in GoTrue). */
export function mountFactorRoutes(app: Hono, service: AuthService): void {
  app.post('/factors', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    const issuer = new URL(service.publicOrigin()).host;
    return c.json(await service.mfa.enroll(caller, await jsonBody(c), issuer));
  });
  app.post('/factors/:id/challenge', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.mfa.challenge(caller, c.req.param('id'), await jsonBody(c), clientIp(c)));
  });
  app.post('/factors/:id/verify', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.mfa.verify(caller, c.req.param('id'), await jsonBody(c), clientIp(c)));
  });
  app.delete('/factors/:id', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.mfa.unenroll(caller, c.req.param('id')));
  });
  // Engage's recovery codes (auth/recovery-codes.ts): how many are left, a new set, one used.
  app.get('/recovery-codes', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.recoveryCodes.status(caller));
  });
  app.post('/recovery-codes', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    await jsonBody(c);
    return c.json(await service.recoveryCodes.generate(caller));
  });
  app.post('/recovery-codes/verify', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.recoveryCodes.verify(caller, await jsonBody(c), clientIp(c)));
  });
}

/**
 * `/passkeys`: registering one needs a user with an address (as in GoTrue: an anonymous user has
 * no account a passkey could return to); renaming and removing one need a session.
 */
export function mountPasskeyRoutes(app: Hono, service: AuthService): void {
  app.post('/passkeys/registration/options', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    await jsonBody(c);
    return c.json(await service.passkeys.registrationOptions(caller, ctx(c)));
  });
  app.post('/passkeys/registration/verify', async (c) => {
    const caller = await service.authenticateNamed(bearerToken(c));
    return c.json(await service.passkeys.registrationVerify(caller, await jsonBody(c), ctx(c)));
  });
  app.post('/passkeys/authentication/options', async (c) => {
    await jsonBody(c);
    return c.json(await service.passkeys.authenticationOptions(ctx(c)));
  });
  app.post('/passkeys/authentication/verify', async (c) =>
    c.json(await service.passkeys.authenticationVerify(await jsonBody(c), ctx(c))),
  );
  app.get('/passkeys', async (c) =>
    c.json(await service.passkeys.list(await service.authenticate(bearerToken(c)))),
  );
  app.patch('/passkeys/:id', async (c) => {
    const caller = await service.authenticate(bearerToken(c));
    return c.json(await service.passkeys.update(caller, c.req.param('id'), await jsonBody(c)));
  });
  app.delete('/passkeys/:id', async (c) => {
    const caller = await service.authenticate(bearerToken(c));
    return c.json(await service.passkeys.remove(caller, c.req.param('id')));
  });
}
