// The admin dashboard's OAuth clients (/api/admin/oauth-clients): the GoTrue admin API's clients
// (auth/oauth-clients.ts) for a signed-in admin, so the service-role key never reaches a browser.
// Embedded auth only. A new or regenerated secret is in that one answer and nowhere else: not in
// the list, not in a log line.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { AuthError } from '../auth/errors.js';
import type { AuthService } from '../auth/service.js';
import { requireAdmin, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';

export interface AdminOAuthClientDeps {
  service: AuthService;
  verifyAccessToken: VerifyAccessToken;
  logger: Logger;
  /** ADMIN_REQUIRE_MFA, as for the rest of /api/admin. */
  requireMfa: boolean;
}

const createForm = z.object({
  client_name: z.string().trim().min(1, 'Give the client a name.').max(200, 'The name is too long.'),
  redirect_uris: z
    .array(z.string().trim().max(2048, 'A redirect URI is too long.'))
    .min(1, 'Give at least one redirect URI.')
    .max(10, 'At most 10 redirect URIs.'),
  client_type: z.enum(['confidential', 'public']),
});

/** An edit from the dashboard: the name and the redirect URIs (the type and secret stay). */
const updateForm = createForm.pick({ client_name: true, redirect_uris: true }).partial();

export function adminOAuthClientRoutes(deps: AdminOAuthClientDeps): Hono<AuthEnv> {
  const { service, logger } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('*', requireAdmin(deps.verifyAccessToken, { requireMfa: deps.requireMfa }));
  app.onError((error, c) => {
    if (error instanceof AuthError)
      return c.json(
        { error: error.code, message: error.message, ...(error.field && { field: error.field }) },
        error.status as 400,
      );
    // The auth middleware's refusals (401/403) carry their own answer.
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  });

  app.get('/', async (c) => {
    const page = await service.oauthClients.list({ page: '1', per_page: '100' });
    return c.json({ clients: page.body.clients, total: page.total });
  });

  app.post('/', async (c) => {
    const parsed = await readJsonBody(c, createForm);
    if (!parsed.ok) return parsed.response;
    const { client_type, ...rest } = parsed.data;
    const client = await service.oauthClients.create({
      ...rest,
      client_type,
      token_endpoint_auth_method: client_type === 'public' ? 'none' : 'client_secret_basic',
    });
    logger.info('oauth client created', { actor: c.get('user').id, client: client.client_id });
    return c.json({ client }, 201);
  });

  app.put('/:id', async (c) => {
    const parsed = await readJsonBody(c, updateForm);
    if (!parsed.ok) return parsed.response;
    const client = await service.oauthClients.update(c.req.param('id'), parsed.data);
    logger.info('oauth client updated', { actor: c.get('user').id, client: client.client_id });
    return c.json({ client });
  });

  app.delete('/:id', async (c) => {
    await service.oauthClients.remove(c.req.param('id'));
    logger.info('oauth client deleted', { actor: c.get('user').id, client: c.req.param('id') });
    return c.body(null, 204);
  });

  app.post('/:id/regenerate-secret', async (c) => {
    const client = await service.oauthClients.regenerateSecret(c.req.param('id'));
    logger.info('oauth client secret regenerated', { actor: c.get('user').id, client: client.client_id });
    return c.json({ client });
  });

  return app;
}
