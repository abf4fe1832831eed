import type { Db, Queryable } from '@engage/db';
import { createUser as createAuthUser } from '../auth/admin-users.js';
import { AuthError } from '../auth/errors.js';
import type { AuthService } from '../auth/service.js';
import { containsPattern, toUser, USER_COLUMNS, type UserRow } from './embedded-rows.js';
import {
  ACCEPT_INVITE_PATH,
  AdminError,
  EMAIL_EXISTS_MESSAGE,
  fromGoTrueUser,
  LAST_ADMIN_MESSAGE,
  summaryOf,
  USER_NOT_FOUND_MESSAGE,
  type AdminUser,
  type AdminUserDetail,
  type ListUsersPage,
  type ListUsersQuery,
  type SignupDay,
  type UserAdmin,
  type UserRole,
  type UserStats,
  durationMessage,
} from './types.js';

export { containsPattern };

/** The auth service's refusals as the admin API words them. */
function fromAuthError(error: unknown): never {
  if (error instanceof AuthError) {
    if (error.code === 'user_not_found') throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    if (error.code === 'email_exists') throw new AdminError('email_exists', EMAIL_EXISTS_MESSAGE);
    if (error.status === 429) throw new AdminError('rate_limited', error.message);
  }
  throw error;
}

/**
 * The embedded implementation: SQL on the auth_users table. Search uses the trigram index of
 * migrations/admin when present; pages are keyset-paginated on (created_at, id), so page 500 costs
 * what page 1 does. The mailing and session actions go through the auth service's admin functions
 * (`auth`); without it (a test of the listing alone) they answer 'not_supported'.
 */
export function createEmbeddedUserAdmin(db: Db, auth?: AuthService['admin'] | null): UserAdmin {
  const service = () => {
    if (!auth) throw new AdminError('not_supported', 'The embedded auth service is not running.');
    return auth;
  };

  async function listUsers(query: ListUsersQuery, withTotal = true): Promise<ListUsersPage> {
    // Anonymous users (AUTH_ANONYMOUS) are not accounts: the dashboard neither lists nor counts them.
    const where: string[] = ['not is_anonymous'];
    const params: unknown[] = [];
    const search = query.search?.trim();
    if (search) {
      params.push(containsPattern(search));
      where.push(`lower(email) like $${params.length}`);
    }
    if (query.status === 'verified') where.push('email_confirmed_at is not null');
    if (query.status === 'unverified') where.push('email_confirmed_at is null');
    const filter = where.length ? `where ${where.join(' and ')}` : '';

    const pageWhere = [...where];
    const pageParams = [...params];
    if (query.after) {
      pageParams.push(query.after.createdAt, query.after.id);
      pageWhere.push(
        `(created_at, id) < ($${pageParams.length - 1}::timestamptz, $${pageParams.length}::uuid)`,
      );
    }
    pageParams.push(query.limit + 1);
    const pageSql = `select ${USER_COLUMNS} from auth_users
      ${pageWhere.length ? `where ${pageWhere.join(' and ')}` : ''}
      order by created_at desc, id desc limit $${pageParams.length}`;

    const count = withTotal
      ? await db.query<{ total: number }>(`select count(*)::int as total from auth_users ${filter}`, params)
      : null;
    const { rows } = await db.query<UserRow>(pageSql, pageParams);
    const more = rows.length > query.limit;
    const shown = more ? rows.slice(0, query.limit) : rows;
    const last = shown[shown.length - 1];
    return {
      users: shown.map(toUser),
      total: count?.rows[0]?.total ?? 0,
      next: more && last ? { createdAt: last.cursor_at, id: last.id } : null,
    };
  }

  async function stats(): Promise<UserStats> {
    const { rows } = await db.query<UserStats>(
      `select count(*)::int as total,
              count(email_confirmed_at)::int as verified,
              (count(*) - count(email_confirmed_at))::int as pending
         from auth_users where not is_anonymous`,
    );
    return rows[0] ?? { total: 0, verified: 0, pending: 0 };
  }

  async function signupsPerDay(days: number): Promise<SignupDay[]> {
    const { rows } = await db.query<SignupDay>(
      `with bounds as (select (now() at time zone 'UTC')::date as today),
            span as (
              select generate_series(today - ($1::int - 1), today, interval '1 day')::date as day from bounds
            ),
            counts as (
              select (created_at at time zone 'UTC')::date as day, count(*)::int as n
                from auth_users, bounds
               where not is_anonymous
                 and created_at >= ((today - ($1::int - 1))::timestamp at time zone 'UTC')
               group by 1
            )
       select to_char(span.day, 'YYYY-MM-DD') as day, coalesce(counts.n, 0)::int as count
         from span left join counts on counts.day = span.day
        order by span.day`,
      [days],
    );
    return rows;
  }

  async function getUser(id: string): Promise<AdminUser | null> {
    const { rows } = await db.query<UserRow>(
      `select ${USER_COLUMNS} from auth_users where id = $1 and not is_anonymous`,
      [id],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async function createUser({ email, password }: { email: string; password: string }): Promise<AdminUser> {
    // The auth module's own creation (hashing, address rules, the unique-address race), confirmed at once.
    try {
      const created = await createAuthUser(db, {
        email,
        password,
        emailConfirm: true,
        appMetadata: { provider: 'email', providers: ['email'] },
      });
      const user = await getUser(created.id);
      if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
      return user;
    } catch (error) {
      if (error instanceof AuthError && error.code === 'email_exists')
        throw new AdminError('email_exists', EMAIL_EXISTS_MESSAGE);
      if (
        error instanceof AuthError &&
        (error.code === 'weak_password' || error.code === 'validation_failed')
      )
        throw new AdminError('weak_password', error.message);
      throw error;
    }
  }

  /**
   * Locks the target and every admin row, in id order, and refuses when the change would leave no
   * administrator: a concurrent role change or deletion waits here and then sees this one's outcome.
   */
  async function lockKeepingAnAdmin(tx: Queryable, id: string, removesAdminRole: boolean): Promise<void> {
    // An anonymous user is neither a target here nor an admin, whatever its app_metadata says.
    const { rows: locked } = await tx.query<{ id: string; role: string | null }>(
      `select id, raw_app_meta_data->>'role' as role from auth_users
        where not is_anonymous and (id = $1 or raw_app_meta_data->>'role' = 'admin')
        order by id for update`,
      [id],
    );
    const target = locked.find((r) => r.id === id);
    if (!target) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    const otherAdmins = locked.filter((r) => r.id !== id && r.role === 'admin').length;
    if (target.role === 'admin' && removesAdminRole && otherAdmins === 0)
      throw new AdminError('last_admin', LAST_ADMIN_MESSAGE);
  }

  async function deleteUser(id: string): Promise<AdminUser> {
    return db.transaction(async (tx) => {
      await lockKeepingAnAdmin(tx, id, true);
      // Sessions, refresh tokens and factors go with the user (on delete cascade).
      const { rows } = await tx.query<UserRow>(
        `delete from auth_users where id = $1 returning ${USER_COLUMNS}`,
        [id],
      );
      return toUser(rows[0] as UserRow);
    });
  }

  async function verifyUsers(ids: readonly string[]): Promise<AdminUser[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<UserRow>(
      `update auth_users set email_confirmed_at = now(), updated_at = now()
        where id = any($1::uuid[]) and email_confirmed_at is null and not is_anonymous
        returning ${USER_COLUMNS}`,
      [[...ids]],
    );
    return rows.map(toUser);
  }

  async function setRole(id: string, role: UserRole): Promise<AdminUser> {
    return db.transaction(async (tx) => {
      await lockKeepingAnAdmin(tx, id, role !== 'admin');
      const { rows } = await tx.query<UserRow>(
        `update auth_users
            set raw_app_meta_data = case when $2::text = 'user' then raw_app_meta_data - 'role'
                                         else raw_app_meta_data || jsonb_build_object('role', $2::text) end,
                updated_at = now()
          where id = $1
          returning ${USER_COLUMNS}`,
        [id, role],
      );
      return toUser(rows[0] as UserRow);
    });
  }

  async function getUserDetail(id: string): Promise<AdminUserDetail | null> {
    try {
      return fromGoTrueUser(await service().get(id));
    } catch (error) {
      if (error instanceof AuthError && error.code === 'user_not_found') return null;
      throw error;
    }
  }

  /** Runs an auth-service action on a user, then answers the user as it is now. */
  async function act(id: string, action: (auth: AuthService['admin']) => Promise<unknown>) {
    try {
      await action(service());
    } catch (error) {
      fromAuthError(error);
    }
    const user = await getUser(id);
    if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    return user;
  }

  return {
    kind: 'embedded',
    listUsers: (query) => listUsers(query),
    getUserDetail,
    async inviteUser(email) {
      try {
        return summaryOf(fromGoTrueUser(await service().inviteUser(email, ACCEPT_INVITE_PATH)));
      } catch (error) {
        return fromAuthError(error);
      }
    },
    sendRecovery: (id) => act(id, (a) => a.sendRecovery(id)),
    sendMagicLink: (id) => act(id, (a) => a.sendMagicLink(id)),
    signOutEverywhere: (id) => act(id, (a) => a.signOutEverywhere(id)),
    async banUser(id, duration) {
      try {
        return summaryOf(fromGoTrueUser(await service().banUser(id, duration)));
      } catch (error) {
        if (error instanceof AuthError && error.code === 'validation_failed')
          throw new AdminError('invalid_duration', durationMessage(error));
        return fromAuthError(error);
      }
    },
    async *exportUsers(filter, pageSize) {
      let after: ListUsersQuery['after'];
      do {
        const page = await listUsers({ ...filter, limit: pageSize, after }, false);
        if (page.users.length) yield page.users;
        after = page.next ?? undefined;
      } while (after);
    },
    stats,
    signupsPerDay,
    getUser,
    createUser,
    deleteUser,
    verifyUsers,
    setRole,
  };
}
