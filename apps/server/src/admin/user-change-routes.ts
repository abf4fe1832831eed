import { type UserResponse, type VerifyResponse, roleBodySchema as roleBody } from '@engage/http-contract';
import type { Hono } from 'hono';
import { z } from 'zod';
import { checkPassword } from '../auth/passwords.js';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import { badRequest, createBody, MISSING_FIELDS_MESSAGE, uuid, verifyBody } from './inputs.js';
import type { AdminRouteContext } from './routes.js';

/** Creating, deleting, confirming users and changing their role: each audited. */
export function mountUserChangeRoutes(app: Hono<AuthEnv>, ctx: AdminRouteContext): void {
  const { admin, audit, logger } = ctx;
  app.post('/users', async (c) => {
    const body = await readJsonBody(c, createBody);
    if (!body.ok) return body.response;
    const { email, password } = body.data;
    if (!email || !password) return badRequest(c, MISSING_FIELDS_MESSAGE);
    if (!z.email().safeParse(email).success) return badRequest(c, 'Please provide a valid email address.');
    // As GoTrue: too short or too common is 422 weak_password with its reasons, a bad format 400.
    const problem = checkPassword(password);
    if (problem?.reason === 'format') return badRequest(c, problem.message);
    if (problem)
      return c.json({ error: 'weak_password', message: problem.message, reasons: [problem.reason] }, 422);
    const user = await admin().createUser({ email: email.toLowerCase(), password });
    const actor = c.get('user');
    await audit.record(actor, 'user.create', [{ id: user.id, email: user.email }]);
    logger.info('admin created a user', { actor: actor.id, target: user.id });
    return c.json({ user } satisfies UserResponse, 201);
  });

  app.delete('/users/:id', async (c) => {
    const id = uuid.safeParse(c.req.param('id'));
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const actor = c.get('user');
    if (id.data === actor.id)
      return c.json({ error: 'cannot_delete_self', message: 'You cannot delete your own account.' }, 400);
    const user = await admin().deleteUser(id.data);
    await audit.record(actor, 'user.delete', [{ id: user.id, email: user.email }]);
    logger.info('admin deleted a user', { actor: actor.id, target: user.id });
    return c.json({ user } satisfies UserResponse);
  });

  app.post('/users/verify', async (c) => {
    const parsed = await readJsonBody(c, verifyBody);
    if (!parsed.ok) return parsed.response;
    const changed = await admin().verifyUsers(parsed.data.ids);
    const actor = c.get('user');
    if (changed.length)
      await audit.record(
        actor,
        'user.verify',
        changed.map((u) => ({ id: u.id, email: u.email })),
      );
    logger.info('admin verified users', { actor: actor.id, count: changed.length });
    return c.json({ verified: changed.map((u) => u.id), users: changed } satisfies VerifyResponse);
  });

  app.put('/users/:id/role', async (c) => {
    const id = uuid.safeParse(c.req.param('id'));
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const parsed = await readJsonBody(c, roleBody);
    if (!parsed.ok) return parsed.response;
    const actor = c.get('user');
    // An admin demoting themselves could lock everyone out; another admin has to do it.
    if (id.data === actor.id)
      return c.json({ error: 'self_role_change', message: 'You cannot change your own role.' }, 400);
    const user = await admin().setRole(id.data, parsed.data.role);
    await audit.record(actor, 'user.role', [{ id: user.id, email: user.email }], user.role);
    logger.info('admin changed a role', { actor: actor.id, target: user.id, role: user.role });
    return c.json({ user } satisfies UserResponse);
  });
}
