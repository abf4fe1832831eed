// The embedded auth service's HTTP face: GoTrue's routes under /auth/v1.
// Handlers only adapt HTTP to the framework-free service in ../auth.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { bearerToken } from '../../platform/bearer-token.js';
import type { Logger } from '../../platform/logger.js';
import { sameSecret } from '../../platform/same-secret.js';
import { AuthError, authErrors } from '../errors.js';
import type { AuthService } from '../service.js';
import { adminApiRoutes } from './admin-routes.js';
import { errorResponse, jsonBody, requestContext } from './gotrue-io.js';
import { mountFactorRoutes, mountPasskeyRoutes } from './mfa-routes.js';
import { isOpenPath } from './open-paths.js';

export interface AuthRoutesOptions {
  service: AuthService;
  logger: Logger;
  siteTitle: string;
  /** The server's one body limit (MAX_JSON_BYTES), answered here in GoTrue's error shape. */
  maxJsonBytes: number;
}

export function authRoutes(opts: AuthRoutesOptions): Hono {
  const { service, logger } = opts;
  const app = new Hono();

  // Links, redirects and issuers come from the service's configured origin, never from this request.
  const ctx = requestContext;

  // Tokens and account data must stay out of browser and proxy caches: every answer is no-store
  // unless its route chose otherwise (the public JWKS).
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use(
    '*',
    cors({
      origin: (origin) => origin || '*',
      allowHeaders: ['apikey', 'authorization', 'content-type', 'x-client-info', 'x-supabase-api-version'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-Supabase-Api-Version', 'X-Total-Count', 'Link'],
      maxAge: 600,
    }),
  );
  app.use(
    '*',
    bodyLimit({
      maxSize: opts.maxJsonBytes,
      onError: (c) =>
        errorResponse(
          c,
          new AuthError(413, 'request_too_large', `Request body is larger than ${opts.maxJsonBytes} bytes`),
        ),
    }),
  );
  app.use('*', async (c, next) => {
    const path = c.req.path.replace(/^.*\/auth\/v1/, '') || '/';
    if (isOpenPath(path)) return next();
    const key = c.req.header('apikey') ?? c.req.query('apikey');
    // GoTrue itself reads no apikey (a Supabase project's gateway does), and the anon key is public
    // (/config.json), so a request without one is taken as the anon key's, as GoTrue takes it.
    // What a caller may do is decided by its Bearer token; the admin API needs the service key's.
    // A key that is given must be one of ours, as the gateway would insist.
    if (key === undefined) return next();
    // Both compared, in constant time: which key was close is not told by the time taken either.
    const anon = sameSecret(service.keys.anonKey, key);
    const serviceRole = sameSecret(service.keys.serviceRoleKey, key);
    if (!anon && !serviceRole)
      return errorResponse(c, new AuthError(401, 'no_authorization', 'Invalid API key'));
    return next();
  });

  app.onError((error, c) => {
    if (error instanceof AuthError) return errorResponse(c, error);
    logger.error('auth: unhandled error', { path: c.req.path, error: error.message, stack: error.stack });
    return errorResponse(
      c,
      new AuthError(500, 'unexpected_failure', 'Unexpected failure, please try again.'),
    );
  });

  app.get('/health', (c) =>
    c.json({ version: 'engage', name: 'GoTrue', description: 'Engage embedded auth, GoTrue-compatible' }),
  );
  app.get('/settings', (c) => c.json(service.settings()));
  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json({ keys: [service.keys.publicJwk] });
  });

  app.post('/signup', async (c) =>
    c.json(await service.signup(await jsonBody(c), c.req.query('redirect_to'), ctx(c))),
  );

  app.post('/token', async (c) => {
    const body = await jsonBody(c);
    const grant = c.req.query('grant_type') ?? (body as { grant_type?: unknown } | null)?.grant_type;
    return c.json(await service.grant(grant, body, ctx(c)));
  });

  app.post('/logout', async (c) => {
    await service.logout(bearerToken(c), c.req.query('scope'));
    return c.body(null, 204);
  });

  app.post('/recover', async (c) =>
    c.json(await service.recover(await jsonBody(c), c.req.query('redirect_to'), ctx(c))),
  );

  app.post('/resend', async (c) =>
    c.json(await service.resend(await jsonBody(c), c.req.query('redirect_to'), ctx(c))),
  );

  // POST /magiclink is GoTrue's older name for an email OTP.
  for (const path of ['/otp', '/magiclink'])
    app.post(path, async (c) =>
      c.json(await service.otp(await jsonBody(c), c.req.query('redirect_to'), ctx(c))),
    );

  app.post('/invite', async (c) => {
    await service.admin.authorize(bearerToken(c));
    return c.json(await service.admin.invite(await jsonBody(c), c.req.query('redirect_to')));
  });

  app.get('/user', async (c) => c.json(await service.getUser(bearerToken(c))));
  app.put('/user', async (c) =>
    c.json(await service.updateUser(bearerToken(c), await jsonBody(c), c.req.query('redirect_to'), ctx(c))),
  );
  app.get('/reauthenticate', async (c) => c.json(await service.reauthenticate(bearerToken(c))));

  // Features this server does not offer answer with GoTrue's own "disabled" codes.
  app.all('/sso', () => {
    throw new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
  });
  // GoTrue checks the session first, then answers that manual linking is off.
  const manualLinkingDisabled = async (c: Context) => {
    await service.authenticate(bearerToken(c));
    throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
  };
  app.get('/user/identities/authorize', manualLinkingDisabled);
  app.delete('/user/identities/:id', manualLinkingDisabled);
  // No external OAuth provider is offered: GoTrue's answer for a provider that is not enabled.
  app.get('/authorize', () => {
    throw authErrors.validation('Unsupported provider: provider is not enabled');
  });

  app.get('/verify', async (c) => {
    const q = c.req.query();
    return c.redirect(
      await service.verifyRedirect({ token: q.token, type: q.type, redirect_to: q.redirect_to }, ctx(c)),
      303,
    );
  });
  app.post('/verify', async (c) => c.json(await service.verifyOtp(await jsonBody(c), ctx(c))));

  mountFactorRoutes(app, service);
  mountPasskeyRoutes(app, service);

  app.route('/admin', adminApiRoutes(service));

  app.all('*', () => {
    throw new AuthError(404, 'not_found', 'Not found');
  });
  return app;
}
