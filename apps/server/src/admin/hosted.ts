import { GoTrueAdminApi, isAuthApiError, type User } from '@supabase/auth-js';
import { roleOf } from '../middleware/require-auth.js';
import {
  AdminError,
  compareNewestFirst,
  EMAIL_EXISTS_MESSAGE,
  LAST_ADMIN_MESSAGE,
  type AdminUser,
  type ListUsersPage,
  type ListUsersQuery,
  type SignupDay,
  type UserAdmin,
  type UserRole,
  type UserStats,
} from './types.js';

export interface HostedUserAdminOptions {
  /** The project's URL, e.g. https://abc.supabase.co (the admin API is under /auth/v1). */
  url: string;
  /** SUPABASE_SERVICE_ROLE_KEY: sent to Supabase only, never logged or returned. */
  serviceRoleKey: string;
  fetch?: typeof fetch;
  /** Users per listUsers page while reading them all (GoTrue allows up to 1000). */
  pageSize?: number;
}

function toAdminUser(user: User): AdminUser {
  return {
    id: user.id,
    email: user.email ?? '',
    created_at: new Date(user.created_at).toISOString(),
    email_confirmed_at: user.email_confirmed_at ? new Date(user.email_confirmed_at).toISOString() : null,
    last_sign_in_at: user.last_sign_in_at ? new Date(user.last_sign_in_at).toISOString() : null,
    is_admin: user.app_metadata?.role === 'admin',
    role: roleOf(user.app_metadata),
  };
}

/** A failure of the hosted service, without the body (which might echo a request header). */
function upstream(what: string, error: { status?: number; message: string }): AdminError {
  return new AdminError('upstream_error', `Supabase refused to ${what} (${error.status ?? 'no status'}).`);
}

const key = (u: AdminUser) => ({ createdAtKey: u.created_at, id: u.id });

/**
 * Hosted Supabase through the GoTrue admin API (the official client, with the service-role key).
 * GoTrue's admin API has neither search nor filters nor counts, so list, search and statistics
 * read every user page by page (1000 a request) and work in memory: fine for the few thousand
 * accounts of a personal site, and documented as the hosted mode's limit in docs/decisions.md.
 * Writes (create, delete, verify) are single admin calls.
 */
export function createHostedUserAdmin(options: HostedUserAdminOptions): UserAdmin {
  const api = new GoTrueAdminApi({
    url: `${options.url.replace(/\/+$/, '')}/auth/v1`,
    headers: { Authorization: `Bearer ${options.serviceRoleKey}`, apikey: options.serviceRoleKey },
    fetch: options.fetch,
  });
  const pageSize = options.pageSize ?? 1000;

  async function allUsers(): Promise<AdminUser[]> {
    const users: AdminUser[] = [];
    for (let page = 1; ; page++) {
      const { data, error } = await api.listUsers({ page, perPage: pageSize });
      if (error) throw upstream('list users', error);
      users.push(...data.users.map(toAdminUser));
      if (data.users.length < pageSize) break;
    }
    return users.sort((a, b) => compareNewestFirst(key(a), key(b)));
  }

  async function getRawUser(id: string): Promise<User | null> {
    const { data, error } = await api.getUserById(id);
    if (error) {
      if (error.status === 404) return null;
      throw upstream('read a user', error);
    }
    return data.user;
  }

  async function getUser(id: string): Promise<AdminUser | null> {
    const user = await getRawUser(id);
    return user ? toAdminUser(user) : null;
  }

  return {
    kind: 'hosted',
    getUser,

    async listUsers(query: ListUsersQuery): Promise<ListUsersPage> {
      const term = query.search?.trim().toLowerCase();
      const matching = (await allUsers()).filter(
        (u) =>
          (!term || u.email.toLowerCase().includes(term)) &&
          (query.status === 'all' || (query.status === 'verified') === (u.email_confirmed_at !== null)),
      );
      const after = query.after;
      const start = after
        ? matching.findIndex(
            (u) =>
              compareNewestFirst(key(u), {
                createdAtKey: new Date(after.createdAt).toISOString(),
                id: after.id,
              }) > 0,
          )
        : 0;
      const rest = start < 0 ? [] : matching.slice(start);
      const users = rest.slice(0, query.limit);
      const last = users[users.length - 1];
      return {
        users,
        total: matching.length,
        next: rest.length > query.limit && last ? { createdAt: last.created_at, id: last.id } : null,
      };
    },

    async stats(): Promise<UserStats> {
      const users = await allUsers();
      const verified = users.filter((u) => u.email_confirmed_at !== null).length;
      return { total: users.length, verified, pending: users.length - verified };
    },

    async signupsPerDay(days: number): Promise<SignupDay[]> {
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      const out: SignupDay[] = [];
      const index = new Map<string, SignupDay>();
      for (let i = days - 1; i >= 0; i--) {
        const day = new Date(today.getTime() - i * 86_400_000).toISOString().slice(0, 10);
        const entry = { day, count: 0 };
        out.push(entry);
        index.set(day, entry);
      }
      for (const user of await allUsers()) {
        const entry = index.get(user.created_at.slice(0, 10));
        if (entry) entry.count++;
      }
      return out;
    },

    async createUser({ email, password }) {
      const { data, error } = await api.createUser({ email, password, email_confirm: true });
      if (error) {
        if (isAuthApiError(error) && error.code === 'email_exists')
          throw new AdminError('email_exists', EMAIL_EXISTS_MESSAGE);
        if (isAuthApiError(error) && error.status === 422)
          throw new AdminError('weak_password', error.message);
        throw upstream('create the user', error);
      }
      return toAdminUser(data.user);
    },

    async deleteUser(id: string) {
      const user = await getUser(id);
      if (!user) throw new AdminError('user_not_found', 'No user has this id.');
      const { error } = await api.deleteUser(id);
      if (error) {
        if (error.status === 404) throw new AdminError('user_not_found', 'No user has this id.');
        throw upstream('delete the user', error);
      }
      return user;
    },

    async verifyUsers(ids: readonly string[]) {
      const changed: AdminUser[] = [];
      for (const id of new Set(ids)) {
        const user = await getUser(id);
        if (!user || user.email_confirmed_at) continue;
        const { data, error } = await api.updateUserById(id, { email_confirm: true });
        if (error) throw upstream('verify a user', error);
        changed.push(toAdminUser(data.user));
      }
      return changed;
    },

    // GoTrue has no transaction to offer: the last-admin check reads every user first, so two
    // admins demoting each other at the same instant could both pass (documented best effort).
    async setRole(id: string, role: UserRole) {
      const user = await getRawUser(id);
      if (!user) throw new AdminError('user_not_found', 'No user has this id.');
      if (roleOf(user.app_metadata) === 'admin' && role !== 'admin') {
        const others = (await allUsers()).filter((u) => u.role === 'admin' && u.id !== id);
        if (others.length === 0) throw new AdminError('last_admin', LAST_ADMIN_MESSAGE);
      }
      // GoTrue merges app_metadata and drops keys set to null: the other keys stay as they are.
      const { data, error } = await api.updateUserById(id, {
        app_metadata: { ...user.app_metadata, role: role === 'user' ? null : role },
      });
      if (error) {
        if (error.status === 404) throw new AdminError('user_not_found', 'No user has this id.');
        throw upstream('change the role', error);
      }
      return toAdminUser(data.user);
    },
  };
}
