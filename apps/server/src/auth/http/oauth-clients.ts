// GoTrue's OAuth client administration under /auth/v1/admin (auth-js `admin.oauth.*`). Mounted on
// the admin sub-app of auth/http/routes.ts, whose middleware has already required a service-role Bearer.
import type { Context, Hono } from 'hono';
import type { AuthService } from '../service.js';

export function mountOAuthClientRoutes(
  admin: Hono,
  service: AuthService,
  jsonBody: (c: Context) => Promise<unknown>,
): void {
  admin.get('/oauth/clients', async (c) => {
    const page = await service.oauthClients.list({
      page: c.req.query('page'),
      per_page: c.req.query('per_page'),
    });
    c.header('X-Total-Count', String(page.total));
    c.header('Link', page.link);
    return c.json(page.body);
  });
  admin.post('/oauth/clients', async (c) =>
    c.json(await service.oauthClients.create(await jsonBody(c)), 201),
  );
  admin.get('/oauth/clients/:id', async (c) => c.json(await service.oauthClients.get(c.req.param('id'))));
  admin.put('/oauth/clients/:id', async (c) =>
    c.json(await service.oauthClients.update(c.req.param('id'), await jsonBody(c))),
  );
  admin.delete('/oauth/clients/:id', async (c) => {
    await service.oauthClients.remove(c.req.param('id'));
    return c.body(null, 204);
  });
  admin.post('/oauth/clients/:id/regenerate_secret', async (c) =>
    c.json(await service.oauthClients.regenerateSecret(c.req.param('id'))),
  );
}
