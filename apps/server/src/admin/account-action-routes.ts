import {
  banBodySchema as banBody,
  inviteBodySchema as inviteBody,
  type UserResponse,
} from '@engage/http-contract';
import type { Hono } from 'hono';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import { badRequest, userId } from './inputs.js';
import type { AdminRouteContext } from './routes.js';
import type { AdminUser } from './types.js';

/**
 * The account actions of Supabase's Users page: invite, mail a recovery or sign-in link, sign out
 * everywhere, ban. Each is audited and answers the user as it now is.
 */
export function mountAccountActionRoutes(app: Hono<AuthEnv>, ctx: AdminRouteContext): void {
  const { admin, audit, logger } = ctx;
  const targetOf = (u: AdminUser) => [{ id: u.id, email: u.email }];

  app.post('/users/invite', async (c) => {
    const parsed = await readJsonBody(c, inviteBody);
    if (!parsed.ok) return parsed.response;
    const user = await admin().inviteUser(parsed.data.email.toLowerCase());
    const actor = c.get('user');
    await audit.record(actor, 'user.invite', targetOf(user));
    logger.info('admin invited a user', { actor: actor.id, target: user.id });
    return c.json({ user } satisfies UserResponse, 201);
  });

  const mailAction = (
    path: string,
    action: 'user.recovery' | 'user.magic_link',
    send: (id: string) => Promise<AdminUser>,
  ) =>
    app.post(path, async (c) => {
      const id = userId(c);
      if (!id.success) return badRequest(c, 'The user id must be a UUID.');
      const user = await send(id.data);
      const actor = c.get('user');
      await audit.record(actor, action, targetOf(user));
      logger.info('admin mailed a link', { actor: actor.id, target: user.id, action });
      return c.json({ user } satisfies UserResponse, 202);
    });
  mailAction('/users/:id/recovery', 'user.recovery', (id) => admin().sendRecovery(id));
  mailAction('/users/:id/magic-link', 'user.magic_link', (id) => admin().sendMagicLink(id));

  app.post('/users/:id/sign-out', async (c) => {
    const id = userId(c);
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const user = await admin().signOutEverywhere(id.data);
    const actor = c.get('user');
    await audit.record(actor, 'user.sign_out', targetOf(user));
    logger.info('admin signed a user out everywhere', { actor: actor.id, target: user.id });
    return c.json({ user } satisfies UserResponse);
  });

  app.post('/users/:id/ban', async (c) => {
    const id = userId(c);
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const parsed = await readJsonBody(c, banBody);
    if (!parsed.ok) return parsed.response;
    const actor = c.get('user');
    if (id.data === actor.id)
      return c.json({ error: 'cannot_ban_self', message: 'You cannot ban your own account.' }, 400);
    const user = await admin().banUser(id.data, parsed.data.duration);
    await audit.record(actor, 'user.ban', targetOf(user), parsed.data.duration);
    logger.info('admin banned a user', {
      actor: actor.id,
      target: user.id,
      duration: parsed.data.duration,
    });
    return c.json({ user } satisfies UserResponse);
  });
}
