import type { Db } from '@engage/db';
import {
  banBodySchema as banBody,
  inviteBodySchema as inviteBody,
  roleBodySchema as roleBody,
  type AdminStats,
  type AuditPage,
  type BackupStatus,
  type UserResponse,
  type UserDetailResponse,
  type UsersPage,
  type VerifyResponse,
} from '@engage/http-contract';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { checkPassword } from '../auth/passwords.js';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import { requireAdmin, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { createAuditLog, type AuditLog } from './audit.js';
import { usersCsvResponse } from './export.js';
import { createUserAdmin } from './index.js';
import {
  auditQuery,
  badRequest,
  createBody,
  decodeCursor,
  encodeCursor,
  exportQuery,
  firstIssue,
  listQuery,
  statsQuery,
  uuid,
  verifyBody,
  type Ctx,
} from './inputs.js';
import { mountAdminOutboxRoute } from './outbox.js';
import { mountAdminPasskeyRoutes } from './passkey-routes.js';
import { createPasskeyAdmin } from './passkeys.js';
import { AdminError, type AdminUser, type UserAdmin } from './types.js';

export interface AdminRouteDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verifyAccessToken: VerifyAccessToken;
  /** The embedded auth service: mails invitations and links, ends sessions, bans. */
  auth?: AuthService | null;
  /** The site's public origin: with hosted Supabase, where mailed links lead. */
  siteOrigin?: () => string;
  /** Overrides the implementation chosen from the configuration (tests). */
  userAdmin?: UserAdmin | null;
  /** Users per database page of the CSV export (tests make it small). */
  exportPageSize?: number;
  /** Whether scheduled backups run and the last one (backup/runtime.ts); 'off' when absent. */
  backupStatus?: () => BackupStatus;
}

/** The message for a create form missing a field. */
export const MISSING_FIELDS_MESSAGE = 'Please provide both email and password';

/**
 * /api/admin: the dashboard's API. Every route needs a valid access token of a user whose
 * app_metadata.role is 'admin' (401 / 403 otherwise). The service credential, when hosted Supabase
 * is used, stays inside the UserAdmin: no response or log line carries it.
 */
export function adminRoutes(deps: AdminRouteDeps): Hono<AuthEnv> {
  const users =
    deps.userAdmin === undefined
      ? createUserAdmin(deps.config, deps.db, { auth: deps.auth, siteOrigin: deps.siteOrigin })
      : deps.userAdmin;
  const audit: AuditLog = createAuditLog(deps.db);
  const app = new Hono<AuthEnv>();

  // Answers carry account data: never kept by a browser or a shared cache, errors included.
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('*', requireAdmin(deps.verifyAccessToken, { requireMfa: deps.config.ADMIN_REQUIRE_MFA }));
  // Before the user-admin check: backups concern the data, whichever auth backend holds the users.
  app.get('/backups', (c) => c.json<BackupStatus>(deps.backupStatus?.() ?? { mode: 'off' }));
  app.use('*', async (c, next) => {
    if (!users)
      return c.json(
        {
          error: 'admin_unavailable',
          message:
            'User administration needs SUPABASE_SERVICE_ROLE_KEY on the server when hosted Supabase is used.',
        },
        503,
      );
    await next();
    return undefined;
  });
  app.onError((error, c) => {
    if (error instanceof AdminError)
      return c.json({ error: error.code, message: error.message }, error.status as 400);
    // The auth middleware's refusals (401/403) carry their own answer, mounted or tested alone.
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  });
  const admin = () => users as UserAdmin;

  app.get('/users', async (c) => {
    const parsed = listQuery.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
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
    const parsed = statsQuery.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
    const [counts, signups] = [await admin().stats(), await admin().signupsPerDay(parsed.data.days)];
    return c.json({ ...counts, signupsPerDay: signups } satisfies AdminStats);
  });

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
    deps.logger.info('admin created a user', { actor: actor.id, target: user.id });
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
    deps.logger.info('admin deleted a user', { actor: actor.id, target: user.id });
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
    deps.logger.info('admin verified users', { actor: actor.id, count: changed.length });
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
    deps.logger.info('admin changed a role', { actor: actor.id, target: user.id, role: user.role });
    return c.json({ user } satisfies UserResponse);
  });

  // The account actions of Supabase's Users page. Each answers the user as it now is.
  const targetOf = (u: AdminUser) => [{ id: u.id, email: u.email }];
  const userId = (c: Ctx) => uuid.safeParse(c.req.param('id'));

  app.post('/users/invite', async (c) => {
    const parsed = await readJsonBody(c, inviteBody);
    if (!parsed.ok) return parsed.response;
    const user = await admin().inviteUser(parsed.data.email.toLowerCase());
    const actor = c.get('user');
    await audit.record(actor, 'user.invite', targetOf(user));
    deps.logger.info('admin invited a user', { actor: actor.id, target: user.id });
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
      deps.logger.info('admin mailed a link', { actor: actor.id, target: user.id, action });
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
    deps.logger.info('admin signed a user out everywhere', { actor: actor.id, target: user.id });
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
    deps.logger.info('admin banned a user', {
      actor: actor.id,
      target: user.id,
      duration: parsed.data.duration,
    });
    return c.json({ user } satisfies UserResponse);
  });

  app.get('/users.csv', async (c) => {
    const parsed = exportQuery.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
    const { search, status } = parsed.data;
    const exported = admin().exportUsers({ search, status }, deps.exportPageSize ?? 500);
    return usersCsvResponse(
      c,
      exported,
      async () => {
        const actor = c.get('user');
        await audit.record(actor, 'user.export', [], JSON.stringify({ search: search ?? '', status }));
        deps.logger.info('admin exported users', { actor: actor.id });
      },
      deps.logger,
    );
  });

  app.get('/users/:id', async (c) => {
    const id = userId(c);
    if (!id.success) return badRequest(c, 'The user id must be a UUID.');
    const user = await admin().getUserDetail(id.data);
    if (!user) return c.json({ error: 'user_not_found', message: 'No user has this id.' }, 404);
    return c.json({ user } satisfies UserDetailResponse);
  });

  mountAdminPasskeyRoutes(app, {
    passkeys: createPasskeyAdmin(deps.config, deps.auth),
    audit,
    logger: deps.logger,
    emailOf: async (id) => (await admin().getUser(id))?.email ?? null,
  });

  app.get('/audit', async (c) => {
    const parsed = auditQuery.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
    return c.json({ entries: await audit.recent(parsed.data) } satisfies AuditPage);
  });

  mountAdminOutboxRoute(app, deps);

  return app;
}
