// GoTrue's admin API under /auth/v1/admin: every route needs the service role's Bearer.
import { Hono } from 'hono';
import { bearerToken } from '../../platform/bearer-token.js';
import type { AuthService } from '../service.js';
import { jsonBody } from './gotrue-io.js';
import { mountOAuthClientRoutes } from './oauth-clients.js';

/** Users, their factors and passkeys, links, and OAuth clients, for `app.route('/admin', …)`. */
export function adminApiRoutes(service: AuthService): Hono {
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
  return admin;
}
