// The GoTrue admin API (AUTH-CONTRACT §2.10): authority only from a service-role Bearer token.
import type { Db } from '../db/types.js';
import { createUser, deleteUser, listUsers, updateUserById } from './admin-users.js';
import { AuthError, authErrors } from './errors.js';
import type { AuthKeys } from './keys.js';
import { adminUserBody, parseBody } from './schemas.js';
import { isUuid, verifyJwt } from './tokens.js';
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

export function createAdminApi(deps: { db: Db; keys: AuthKeys }) {
  const { db, keys } = deps;

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
      if (token === keys.serviceRoleKey) return;
      const payload = await verifyJwt(keys, token);
      if (payload.role !== 'service_role' && payload.role !== 'supabase_admin') throw authErrors.notAdmin();
    },

    async list(query: { page?: string; per_page?: string }): Promise<UserListPage> {
      const page = pageParam(query.page, 1, 'page', 1_000_000);
      const perPage = pageParam(query.per_page, 50, 'per_page', 1000);
      const { users, total } = await listUsers(db, page, perPage);
      const last = Math.ceil(total / perPage);
      // `page` first in the query: supabase-js reads the digit after the first `=` (AUTH-CONTRACT §2.10).
      const links: string[] = [];
      if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
      links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`);
      return {
        body: { users: users.map((u) => userJson(u)), aud: 'authenticated' },
        total,
        link: links.join(', '),
      };
    },

    async create(body: unknown) {
      const input = parseBody(adminUserBody, body);
      if (input.phone && !input.email)
        throw authErrors.validation('Phone users are not supported by this server');
      if (!input.email) throw authErrors.validation('Unable to validate email address: invalid format');
      if (input.password_hash) throw authErrors.validation('password_hash is not supported by this server');
      if (input.id !== undefined && !isUuid(input.id)) throw authErrors.validation('id must be a UUID');
      const user = await createUser(db, {
        email: input.email,
        password: input.password,
        emailConfirm: input.email_confirm,
        appMetadata: input.app_metadata,
        userMetadata: input.user_metadata,
        id: input.id,
      });
      if (input.ban_duration)
        return userJson(await updateUserById(db, user.id, { banDuration: input.ban_duration }));
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
        email: input.email,
        password: input.password,
        emailConfirm: input.email_confirm,
        appMetadata: input.app_metadata,
        userMetadata: input.user_metadata,
        banDuration: input.ban_duration,
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
      return factorJson(factor);
    },
  };
}
