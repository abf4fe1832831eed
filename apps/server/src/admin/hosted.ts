import { GoTrueAdminApi, isAuthApiError, type User } from '@supabase/auth-js';
import { roleOf } from '../platform/http/require-auth.js';
import { pageOf, signupsPerDay, sortNewestFirst, userFilter } from './in-memory-users.js';
import {
  ACCEPT_INVITE_PATH,
  AdminError,
  EMAIL_EXISTS_MESSAGE,
  fromGoTrueUser,
  assertBanDuration,
  LAST_ADMIN_MESSAGE,
  summaryOf,
  USER_NOT_FOUND_MESSAGE,
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
  /** The site's public origin: links lead there (the invitation to its accept-invite page); the project's Site URL otherwise. */
  siteOrigin?: () => string | undefined;
}

const toAdminUser = (user: User): AdminUser => summaryOf(fromGoTrueUser(user));

/** Hosted Supabase has no admin call that ends another user's sessions (auth-js's signOut needs their JWT). */
export const HOSTED_SIGN_OUT_MESSAGE =
  "Hosted Supabase offers no admin call that ends another user's sessions. Ban the user instead: " +
  'a banned user cannot refresh a session, and access tokens already issued expire within the hour.';

/** A failure of the hosted service, without the body (which might echo a request header). */
function upstream(what: string, error: { status?: number; message: string }): AdminError {
  return new AdminError('upstream_error', `Supabase refused to ${what} (${error.status ?? 'no status'}).`);
}

/**
 * POST /recover or /otp: the endpoints after which Supabase itself mails the link (the admin
 * API's generate_link mails nothing). The service key is the apikey; the answer is {} either way.
 */
async function mailThroughSupabase(
  options: HostedUserAdminOptions,
  path: '/recover' | '/otp',
  body: Record<string, unknown>,
  what: string,
) {
  const base = `${options.url.replace(/\/+$/, '')}/auth/v1`;
  const doFetch = options.fetch ?? fetch;
  const redirect = options.siteOrigin?.();
  const url = `${base}${path}${redirect ? `?redirect_to=${encodeURIComponent(redirect)}` : ''}`;
  const res = await doFetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      apikey: options.serviceRoleKey,
      Authorization: `Bearer ${options.serviceRoleKey}`,
    },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  if (res.status === 429)
    throw new AdminError(
      'rate_limited',
      'Supabase allows one such mail a minute per user; try again shortly.',
    );
  if (!res.ok) throw upstream(what, { status: res.status, message: '' });
}

/** Every account, newest first: GoTrue's admin API pages through them, 1000 a request at most. */
async function allHostedUsers(api: GoTrueAdminApi, pageSize: number): Promise<AdminUser[]> {
  const users: AdminUser[] = [];
  for (let page = 1; ; page++) {
    const { data, error } = await api.listUsers({ page, perPage: pageSize });
    if (error) throw upstream('list users', error);
    // Anonymous users are not accounts: the dashboard neither lists nor counts them (as embedded).
    users.push(...data.users.filter((u) => !u.is_anonymous).map(toAdminUser));
    if (data.users.length < pageSize) break;
  }
  return sortNewestFirst(users);
}

async function rawHostedUser(api: GoTrueAdminApi, id: string): Promise<User | null> {
  const { data, error } = await api.getUserById(id);
  if (error) {
    if (error.status === 404) return null;
    throw upstream('read a user', error);
  }
  return data.user;
}

/** The list, its figures and the export, from GoTrue's admin pages (no search nor counts of its own). */
function hostedReads(
  api: GoTrueAdminApi,
  allUsers: () => Promise<AdminUser[]>,
): Pick<UserAdmin, 'exportUsers' | 'listUsers' | 'stats' | 'signupsPerDay'> {
  return {
    // GoTrue's own order (no sort), one admin page at a time: an export never holds every user.
    async *exportUsers(filter, size) {
      const matches = userFilter(filter);
      for (let page = 1; ; page++) {
        const { data, error } = await api.listUsers({ page, perPage: Math.min(size, 1000) });
        if (error) throw upstream('list users', error);
        const users = data.users.map(toAdminUser).filter(matches);
        if (users.length) yield users;
        if (data.users.length < Math.min(size, 1000)) break;
      }
    },

    async listUsers(query: ListUsersQuery): Promise<ListUsersPage> {
      return pageOf((await allUsers()).filter(userFilter(query)), query);
    },

    async stats(): Promise<UserStats> {
      const users = await allUsers();
      const verified = users.filter((u) => u.email_confirmed_at !== null).length;
      return { total: users.length, verified, pending: users.length - verified };
    },

    async signupsPerDay(days: number): Promise<SignupDay[]> {
      return signupsPerDay(await allUsers(), days, new Date());
    },
  };
}

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
  const mailThrough = (path: '/recover' | '/otp', body: Record<string, unknown>, what: string) =>
    mailThroughSupabase(options, path, body, what);

  async function mustGetRaw(id: string): Promise<User> {
    const user = await getRawUser(id);
    if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    return user;
  }

  const allUsers = () => allHostedUsers(api, pageSize);
  const getRawUser = (id: string) => rawHostedUser(api, id);

  async function getUser(id: string): Promise<AdminUser | null> {
    const user = await getRawUser(id);
    return user ? toAdminUser(user) : null;
  }

  return {
    kind: 'hosted',
    getUser,

    async getUserDetail(id) {
      const user = await getRawUser(id);
      return user ? fromGoTrueUser(user) : null;
    },

    async inviteUser(email) {
      const { data, error } = await api.inviteUserByEmail(email, {
        redirectTo: options.siteOrigin ? `${options.siteOrigin()}${ACCEPT_INVITE_PATH}` : undefined,
      });
      if (error) {
        if (isAuthApiError(error) && error.code === 'email_exists')
          throw new AdminError('email_exists', EMAIL_EXISTS_MESSAGE);
        if (error.status === 429)
          throw new AdminError('rate_limited', 'Supabase refused: too many mails; try again shortly.');
        throw upstream('invite the user', error);
      }
      return toAdminUser(data.user);
    },

    async sendRecovery(id) {
      const user = await mustGetRaw(id);
      await mailThrough('/recover', { email: user.email }, 'send a recovery mail');
      return toAdminUser(user);
    },

    async sendMagicLink(id) {
      const user = await mustGetRaw(id);
      await mailThrough('/otp', { email: user.email, create_user: false }, 'send a sign-in link');
      return toAdminUser(user);
    },

    async signOutEverywhere(id) {
      await mustGetRaw(id);
      throw new AdminError('not_supported', HOSTED_SIGN_OUT_MESSAGE);
    },

    async banUser(id, duration) {
      assertBanDuration(duration);
      await mustGetRaw(id);
      const { data, error } = await api.updateUserById(id, { ban_duration: duration });
      if (error) {
        if (error.status === 404) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
        throw upstream('ban the user', error);
      }
      return toAdminUser(data.user);
    },

    ...hostedReads(api, allUsers),

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

    // The same best-effort last-admin check as setRole's (GoTrue offers no transaction).
    async deleteUser(id: string) {
      const user = await getUser(id);
      if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
      if (user.role === 'admin') {
        const others = (await allUsers()).filter((u) => u.role === 'admin' && u.id !== id);
        if (others.length === 0) throw new AdminError('last_admin', LAST_ADMIN_MESSAGE);
      }
      const { error } = await api.deleteUser(id);
      if (error) {
        if (error.status === 404) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
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
      if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
      if (roleOf(user.app_metadata) === 'admin' && role !== 'admin') {
        const others = (await allUsers()).filter((u) => u.role === 'admin' && u.id !== id);
        if (others.length === 0) throw new AdminError('last_admin', LAST_ADMIN_MESSAGE);
      }
      // GoTrue merges app_metadata and drops keys set to null: the other keys stay as they are.
      const { data, error } = await api.updateUserById(id, {
        app_metadata: { ...user.app_metadata, role: role === 'user' ? null : role },
      });
      if (error) {
        if (error.status === 404) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
        throw upstream('change the role', error);
      }
      return toAdminUser(data.user);
    },
  };
}
