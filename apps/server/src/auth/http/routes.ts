// The embedded auth service's HTTP face: GoTrue's routes under /auth/v1.
// Handlers only adapt HTTP to the framework-free service in ../auth.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { bearerToken } from '../../platform/bearer-token.js';
import { clientIp } from '../../platform/client-address.js';
import type { Logger } from '../../platform/logger.js';
import { sameSecret } from '../../platform/same-secret.js';
import { AuthError, authErrors } from '../errors.js';
import { OAuthError, type AuthService, type RequestContext } from '../service.js';
import { mountOAuthClientRoutes } from './oauth-clients.js';
import { isOpenPath } from './open-paths.js';

export interface AuthRoutesOptions {
  service: AuthService;
  logger: Logger;
  siteTitle: string;
  /** The server's one body limit (MAX_JSON_BYTES), answered here in GoTrue's error shape. */
  maxJsonBytes: number;
}

const API_VERSION = '2024-01-01';

/** True when the request opts into the 2024-01-01 error shape (a parsable date at or after it). */
function wantsNewErrors(c: Context): boolean {
  const value = c.req.header('x-supabase-api-version');
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return false;
  return value >= API_VERSION;
}

/** The contract's error body for the request's API version, with the version echo. */
export function errorResponse(c: Context, error: AuthError): Response {
  c.header('x-sb-error-code', error.code);
  if (error instanceof OAuthError)
    return c.json({ error: error.oauthError, error_description: error.message }, error.status as 400);
  if (wantsNewErrors(c)) {
    c.header('X-Supabase-Api-Version', API_VERSION);
    return c.json({ code: error.code, message: error.message, ...error.extra }, error.status as 400);
  }
  return c.json(
    { code: error.status, error_code: error.code, msg: error.message, ...error.extra },
    error.status as 400,
  );
}

/**
 * Reads a JSON body; an empty body is `{}` (supabase-js sends none on logout and factor deletes).
 * A NUL character in any string or key is refused (400 `validation_failed`): PostgreSQL's text and
 * jsonb cannot hold it, so it would otherwise surface as a 500 from the database.
 */
async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let nul = false;
  let body: unknown;
  try {
    body = JSON.parse(text, (key, value: unknown) => {
      if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) nul = true;
      return value;
    });
  } catch (error) {
    // V8's message quotes the text around the fault, which may be the caller's password: only the
    // position is kept.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON${at ? ` (error at position ${at})` : ''}`,
    );
  }
  if (nul) throw authErrors.validation('Invalid request body: NUL characters are not allowed');
  return body;
}

export function authRoutes(opts: AuthRoutesOptions): Hono {
  const { service, logger } = opts;
  const app = new Hono();

  // Links, redirects and issuers come from the service's configured origin, never from this request.
  const ctx = (c: Context): RequestContext => ({ ip: clientIp(c), userAgent: c.req.header('user-agent') });

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
    c.json(await service.updateUser(bearerToken(c), await jsonBody(c), c.req.query('redirect_to'))),
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

  // MFA (user Bearer; not for anonymous users, as in GoTrue).
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

  // Passkeys: sign-in needs no session; the rest a user Bearer, and registering one a user with an
  // address (as in GoTrue: an anonymous user has no account a passkey could return to).
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

  // Admin (service-role Bearer).
  const admin = new Hono();
  admin.use('*', async (c, next) => {
    await service.admin.authorize(bearerToken(c));
    return next();
  });
  admin.get('/users', async (c) => {
    const page = await service.admin.list({ page: c.req.query('page'), per_page: c.req.query('per_page') });
    c.header('X-Total-Count', String(page.total));
    c.header('Link', page.link);
    return c.json(page.body);
  });
  admin.post('/users', async (c) => c.json(await service.admin.create(await jsonBody(c))));
  admin.get('/users/:id', async (c) => c.json(await service.admin.get(c.req.param('id'))));
  admin.put('/users/:id', async (c) =>
    c.json(await service.admin.update(c.req.param('id'), await jsonBody(c))),
  );
  admin.delete('/users/:id', async (c) => {
    await jsonBody(c);
    return c.json(await service.admin.remove(c.req.param('id')));
  });
  admin.post('/generate_link', async (c) =>
    c.json(await service.admin.generateLink(await jsonBody(c), c.req.query('redirect_to'))),
  );
  admin.get('/users/:id/factors', async (c) => c.json(await service.admin.factors(c.req.param('id'))));
  admin.delete('/users/:uid/factors/:fid', async (c) =>
    c.json(await service.admin.deleteFactor(c.req.param('uid'), c.req.param('fid'))),
  );
  mountOAuthClientRoutes(admin, service, jsonBody);
  admin.get('/users/:id/passkeys', async (c) => c.json(await service.adminPasskeys.list(c.req.param('id'))));
  admin.delete('/users/:uid/passkeys/:pid', async (c) =>
    c.json(await service.adminPasskeys.remove(c.req.param('uid'), c.req.param('pid'))),
  );
  app.route('/admin', admin);

  app.all('*', () => {
    throw new AuthError(404, 'not_found', 'Not found');
  });
  return app;
}
