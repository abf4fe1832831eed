import {
  banBodySchema as banBody,
  inviteBodySchema as inviteBody,
  outboxQuerySchema,
  roleBodySchema as roleBody,
  USER_SEARCH_MAX_LENGTH,
  userStatusSchema,
  type AdminStats,
  type AuditPage,
  type BackupStatus,
  type MailDelivery,
  type OutboxPage,
  type UserResponse,
  type UserDetailResponse,
  type UsersPage,
  type VerifyResponse,
} from '@engage/http-contract';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { createAuditLog, type AuditLog } from '../admin/audit.js';
import { csvLine, USERS_CSV_HEADER, userCsvLine } from '../admin/csv.js';
import { createUserAdmin } from '../admin/index.js';
import { createPasskeyAdmin } from '../admin/passkeys.js';
import { AdminError, type AdminUser, type ListCursor, type UserAdmin } from '../admin/types.js';
import { listOutbox } from '../auth/mail.js';
import { checkPassword } from '../auth/passwords.js';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/types.js';
import type { Logger } from '../lib/logger.js';
import { requireAdmin, type AuthEnv, type VerifyAccessToken } from '../middleware/require-auth.js';
import { mountAdminPasskeyRoutes } from './admin-passkeys.js';
import { outboxMail } from './mail/outbox-json.js';

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

/** The SPEC's message for a create form missing a field (§5 Accounts). */
export const MISSING_FIELDS_MESSAGE = 'Please provide both email and password';

const uuid = z.uuid({ message: 'Each user id must be a UUID.' });

// A cursor is [created_at as PostgreSQL text or ISO, id] in base64url JSON: opaque to callers.
const cursorSchema = z.tuple([
  z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/),
  uuid,
]);

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

function decodeCursor(value: string): ListCursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

const listQuery = z.object({
  search: z
    .string()
    .max(USER_SEARCH_MAX_LENGTH, `The search is at most ${USER_SEARCH_MAX_LENGTH} characters.`)
    .optional(),
  status: userStatusSchema.default('all'),
  limit: z.coerce
    .number({ message: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit is at least 1.')
    .max(200, 'limit is at most 200.')
    .default(50),
  cursor: z.string().max(200).optional(),
});

const statsQuery = z.object({
  days: z.coerce
    .number({ message: 'days must be a number.' })
    .int('days must be a whole number.')
    .min(1, 'days is at least 1.')
    .max(366, 'days is at most 366.')
    .default(30),
});

const createBody = z.object({
  email: z.string().trim().optional(),
  password: z.string().optional(),
});

const verifyBody = z.object({
  ids: z.array(uuid).min(1, 'Select at least one user.').max(1000, 'At most 1000 users at a time.'),
});

const exportQuery = listQuery.pick({ search: true, status: true });

const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().positive().optional(),
});

type Ctx = Context<AuthEnv>;

const badRequest = (c: Ctx, message: string) => c.json({ error: 'validation_failed', message }, 400);

/** The first zod issue as a sentence for the caller. */
const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? 'The request is not valid.';

async function jsonBody(c: Ctx): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

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
    const parsed = createBody.safeParse(await jsonBody(c));
    if (!parsed.success) return badRequest(c, MISSING_FIELDS_MESSAGE);
    const { email, password } = parsed.data;
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
    const parsed = verifyBody.safeParse(await jsonBody(c));
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
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
    const parsed = roleBody.safeParse(await jsonBody(c));
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
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
    const parsed = inviteBody.safeParse(await jsonBody(c));
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
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
    const parsed = banBody.safeParse(await jsonBody(c));
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
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

  // Streamed: one database page at a time is read when the client takes the previous one, so an
  // export of 100 000 users holds one page in memory. The first page is read before answering, so
  // a failure there is a JSON error and not a truncated file.
  app.get('/users.csv', async (c) => {
    const parsed = exportQuery.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
    const { search, status } = parsed.data;
    const exported = admin().exportUsers({ search, status }, deps.exportPageSize ?? 500);
    const pages = exported[Symbol.asyncIterator]();
    const first = await pages.next();
    const actor = c.get('user');
    await audit.record(actor, 'user.export', [], JSON.stringify({ search: search ?? '', status }));
    deps.logger.info('admin exported users', { actor: actor.id });
    const encoder = new TextEncoder();
    let pending: IteratorResult<AdminUser[]> | null = first;
    let headerSent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          if (!headerSent) {
            headerSent = true;
            controller.enqueue(encoder.encode(csvLine(USERS_CSV_HEADER)));
          }
          const page = pending ?? (await pages.next());
          pending = null;
          if (page.done) return controller.close();
          controller.enqueue(encoder.encode(page.value.map(userCsvLine).join('')));
        } catch (error) {
          deps.logger.error('user export failed midway', { error: (error as Error).message });
          controller.error(error);
        }
        return undefined;
      },
      async cancel() {
        await pages.return?.();
      },
    });
    const day = new Date().toISOString().slice(0, 10);
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="users-${day}.csv"`,
    });
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

  // The mail outbox in the dashboard (issue 19): newest first, bounded, each mail with its links.
  app.get('/outbox', async (c) => {
    const parsed = outboxQuerySchema.safeParse(c.req.query());
    if (!parsed.success) return badRequest(c, firstIssue(parsed.error));
    const { embeddedAuth, SMTP_URL } = deps.config;
    const delivery: MailDelivery = !embeddedAuth ? 'hosted' : SMTP_URL ? 'smtp' : 'outbox';
    const rows = delivery === 'hosted' ? [] : await listOutbox(deps.db, parsed.data.limit);
    return c.json({ delivery, mails: rows.map(outboxMail) } satisfies OutboxPage);
  });

  return app;
}
