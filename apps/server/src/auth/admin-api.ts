// The GoTrue admin API: /admin/users*, /admin/generate_link and /invite, with
// authority only from a service-role Bearer token (`authorize`).
//
// Functions for Engage's own admin API (/api/admin, which checks the caller's admin role and
// audits; these do neither). Each throws AuthError 404 `user_not_found` for an unknown id:
// - inviteUser(email, redirectTo?)   creates the user (no usable password) and mails an invite;
//                                    422 `email_exists` for a confirmed address. Returns the User.
// - sendRecovery(userId, redirectTo?)  mails a password-recovery link (429 inside the resend interval).
// - sendMagicLink(userId, redirectTo?) mails a sign-in link and code (the confirmation mail for an
//                                    unconfirmed address, which signs in too).
// - signOutEverywhere(userId)        ends every session of the user with its refresh tokens; access
//                                    tokens already issued answer 403 session_not_found from then on.
// - banUser(userId, duration)        GoTrue's ban_duration ('24h', '90m', '1h30m'; 'none' lifts it):
//                                    sets banned_until and ends the user's sessions. Returns the User.
import { sameSecret } from '../platform/same-secret.js';
import { parseBanDuration } from './ban-duration.js';
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import type { LinksApi } from './links.js';
import { dropRecoveryCodesWithoutFactor } from './recovery-codes.js';
import { adminUserBody, parseBody } from './schemas.js';
import { isUuid, verifyJwt } from './tokens.js';
import { createUser, deleteUser, listUsers, updateUserById } from './user-store.js';
import { factorJson, findUserById, listFactors, userJson, type FactorRow } from './users.js';

export interface UserListPage {
  body: { users: ReturnType<typeof userJson>[]; aud: 'authenticated' };
  total: number;
  link: string;
}

const pageParam = (value: string | undefined, fallback: number, name: string, max: number) => {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw authErrors.validation(`Bad Pagination Parameters: ${name} must be a whole number from 1 to ${max}`);
  return Number(value);
};

/** GET /admin/users?page=&per_page=, with GoTrue's Link paging. */
async function listPage(
  db: AuthCore['db'],
  query: { page?: string; per_page?: string },
): Promise<UserListPage> {
  const page = pageParam(query.page, 1, 'page', 1_000_000);
  const perPage = pageParam(query.per_page, 50, 'per_page', 1000);
  const { users, total } = await listUsers(db, page, perPage);
  const last = Math.ceil(total / perPage);
  // `page` first in the query: supabase-js reads the digit after the first `=`.
  const links: string[] = [];
  if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`);
  return {
    body: { users: users.map((u) => userJson(u)), aud: 'authenticated' },
    total,
    link: links.join(', '),
  };
}

export function createAdminApi(core: AuthCore, links: LinksApi) {
  const { db, keys } = core;

  const requireUserId = (id: string) => {
    if (!isUuid(id)) throw new AuthError(404, 'user_not_found', 'User not found');
    return id;
  };
  const found = async (id: string) => {
    const user = await findUserById(db, requireUserId(id));
    if (!user) throw authErrors.userNotFound();
    return user;
  };

  return {
    /** 401 without a Bearer, 403 `bad_jwt` for a bad one, 403 `not_admin` for a non-admin role. */
    async authorize(token: string | null) {
      if (!token) throw authErrors.noAuthorization();
      if (sameSecret(keys.serviceRoleKey, token)) return;
      const payload = await verifyJwt(keys, token);
      if (payload.role !== 'service_role' && payload.role !== 'supabase_admin') throw authErrors.notAdmin();
    },

    list: (query: { page?: string; per_page?: string }) => listPage(db, query),

    async create(body: unknown) {
      const input = parseBody(adminUserBody, body);
      if (input.phone && !input.email)
        throw authErrors.validation('Phone users are not supported by this server');
      if (!input.email) throw authErrors.validation('Unable to validate email address: invalid format');
      if (input.password_hash) throw authErrors.validation('password_hash is not supported by this server');
      if (input.id !== undefined && !isUuid(input.id)) throw authErrors.validation('id must be a UUID');
      // Checked before the insert: a refused duration leaves no user behind.
      if (input.ban_duration) parseBanDuration(input.ban_duration);
      const user = await createUser(db, {
        hashPassword: core.hash,
        email: input.email,
        password: input.password,
        emailConfirm: input.email_confirm,
        appMetadata: input.app_metadata,
        userMetadata: input.user_metadata,
        id: input.id,
      });
      if (input.ban_duration)
        return userJson(
          await updateUserById(db, user.id, { banDuration: input.ban_duration, now: core.now() }),
        );
      return userJson(user);
    },

    async get(id: string) {
      const user = await found(id);
      return userJson(user, await listFactors(db, user.id));
    },

    async update(id: string, body: unknown) {
      const input = parseBody(adminUserBody, body);
      requireUserId(id);
      const user = await updateUserById(db, id, {
        hashPassword: core.hash,
        email: input.email,
        password: input.password,
        emailConfirm: input.email_confirm,
        appMetadata: input.app_metadata,
        userMetadata: input.user_metadata,
        banDuration: input.ban_duration,
        now: core.now(),
      });
      return userJson(user, await listFactors(db, user.id));
    },

    async remove(id: string) {
      if (!(await deleteUser(db, requireUserId(id)))) throw authErrors.userNotFound();
      return {};
    },

    async factors(id: string) {
      const user = await found(id);
      return (await listFactors(db, user.id)).map(factorJson);
    },

    async deleteFactor(userId: string, factorId: string) {
      await found(userId);
      const { rows } = await db.query<FactorRow>(
        'delete from auth_factors where id = $1 and user_id = $2 returning *',
        [isUuid(factorId) ? factorId : '00000000-0000-0000-0000-000000000000', userId],
      );
      const factor = rows[0];
      if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
      await db.query(`update auth_sessions set aal = 'aal1', factor_id = null where factor_id = $1`, [
        factor.id,
      ]);
      // An admin's reset of the factors takes the recovery codes with the last one.
      await dropRecoveryCodesWithoutFactor(db, userId);
      return factorJson(factor);
    },

    /** POST /admin/generate_link */
    generateLink: links.generateLink,

    /** POST /invite */
    invite: links.invite,

    async inviteUser(email: string, redirectTo?: string) {
      return userJson(await links.inviteUser(email, redirectTo));
    },

    async sendRecovery(userId: string, redirectTo?: string) {
      await links.sendRecoveryTo(await found(userId), redirectTo);
    },

    async sendMagicLink(userId: string, redirectTo?: string) {
      await links.sendMagicLinkTo(await found(userId), redirectTo);
    },

    async signOutEverywhere(userId: string) {
      const user = await found(userId);
      await db.query('delete from auth_sessions where user_id = $1', [user.id]);
    },

    async banUser(userId: string, duration: string) {
      const user = await found(userId);
      parseBanDuration(duration);
      return db.transaction(async (tx) => {
        const banned = await updateUserById(tx, user.id, { banDuration: duration, now: core.now() });
        if (banned.banned_until) await tx.query('delete from auth_sessions where user_id = $1', [user.id]);
        return userJson(banned, await listFactors(tx, user.id));
      });
    },
  };
}
