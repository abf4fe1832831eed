import { type AdminStats, type UserDetailResponse, type UsersPage } from '@engage/http-contract';
import type { Hono } from 'hono';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';
import { usersCsvResponse } from './export.js';
import {
  badRequest,
  decodeCursor,
  encodeCursor,
  exportQuery,
  listQuery,
  statsQuery,
  userId,
} from './inputs.js';
import type { AdminRouteContext } from './routes.js';

/** The dashboard's user list, its figures, one user's details, and the CSV export. */
export function mountUserReadRoutes(app: Hono<AuthEnv>, ctx: AdminRouteContext): void {
  const { admin, audit, logger } = ctx;
  app.get('/users', async (c) => {
    const parsed = readQuery(c, listQuery);
    if (!parsed.ok) return parsed.response;
    const { search, status, limit, cursor } = parsed.data;
    const after = cursor ? decodeCursor(cursor) : undefined;
    if (after === null)
      return badRequest(c, 'The page cursor is not valid; start again from the first page.');
    const page = await admin().listUsers({ search, status, limit, after });
    return c.json({
      users: page.users,
      total: page.total,
      nextCursor: page.next ? encodeCursor(page.next) : null,
    } satisfies UsersPage);
  });

  app.get('/stats', async (c) => {
    const parsed = readQuery(c, statsQuery);
    if (!parsed.ok) return parsed.response;
    const [counts, signups] = [await admin().stats(), await admin().signupsPerDay(parsed.data.days)];
    return c.json({ ...counts, signupsPerDay: signups } satisfies AdminStats);
  });

  app.get('/users.csv', async (c) => {
    const parsed = readQuery(c, exportQuery);
    if (!parsed.ok) return parsed.response;
    const { search, status } = parsed.data;
    const exported = admin().exportUsers({ search, status }, ctx.exportPageSize ?? 500);
    return usersCsvResponse(
      c,
      exported,
      async () => {
        const actor = c.get('user');
        await audit.record(actor, 'user.export', [], JSON.stringify({ search: search ?? '', status }));
        logger.info('admin exported users', { actor: actor.id });
      },
      logger,
    );
  });

  app.get('/users/:id', async (c) => {
    const id = userId(c);
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const user = await admin().getUserDetail(id.data);
    if (!user) return c.json({ error: 'user_not_found', message: 'No user has this id.' }, 404);
    return c.json({ user } satisfies UserDetailResponse);
  });
}
