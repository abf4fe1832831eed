/** A user as /api/admin returns it (Supabase's field names). */
export interface AdminUser {
  id: string;
  email: string;
  created_at: string;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
  is_admin: boolean;
  /** The account's role (ARCHITECTURE "Roles"); absent from servers older than roles. */
  role?: UserRole;
  /** Until when sign-in is refused; null (or absent from older servers) when not banned. */
  banned_until?: string | null;
}

/** The details panel: the row plus factors and metadata (GET /users/:id). */
export interface AdminUserDetail extends AdminUser {
  invited_at: string | null;
  factors: { id: string; factor_type: string; status: string; friendly_name: string | null }[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
}

/** What an account may do: `operator` uses the server-held provider key, `admin` also manages users. */
export type UserRole = 'user' | 'operator' | 'admin';

export const USER_ROLES: readonly UserRole[] = ['user', 'operator', 'admin'];

/** The role a row shows: the server's, or (from a server without roles) what is_admin says. */
export function roleOf(user: AdminUser): UserRole {
  return user.role ?? (user.is_admin ? 'admin' : 'user');
}

export type UserStatus = 'all' | 'verified' | 'unverified';

export interface UsersPage {
  users: AdminUser[];
  total: number;
  nextCursor: string | null;
}

export interface AdminStats {
  total: number;
  verified: number;
  pending: number;
  signupsPerDay: { day: string; count: number }[];
}

/** One admin action of the audit log. */
export interface AuditEntry {
  id: number;
  actor_id: string;
  actor_email: string;
  action:
    | 'user.create'
    | 'user.delete'
    | 'user.verify'
    | 'user.role'
    | 'user.invite'
    | 'user.recovery'
    | 'user.magic_link'
    | 'user.sign_out'
    | 'user.ban'
    | 'user.export';
  target_id: string | null;
  target_email: string | null;
  /** What changed where the action alone does not say: the new role of 'user.role'. */
  detail?: string | null;
  created_at: string;
}

/** A refusal of the admin API, with its status and the server's own message. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

export interface AdminApi {
  listUsers(params: {
    status: UserStatus;
    search: string;
    cursor: string | null;
    limit?: number;
  }): Promise<UsersPage>;
  stats(days?: number): Promise<AdminStats>;
  createUser(input: { email: string; password: string }): Promise<AdminUser>;
  deleteUser(id: string): Promise<AdminUser>;
  verifyUsers(ids: readonly string[]): Promise<string[]>;
  /** Sets a user's role; the server refuses the caller's own role and removing the last admin. */
  setRole(id: string, role: UserRole): Promise<AdminUser>;
  /** The most recent admin actions, newest first. */
  audit(limit?: number): Promise<AuditEntry[]>;
  getUser(id: string): Promise<AdminUserDetail>;
  /** Creates an unconfirmed user and mails an invitation; 422 for a confirmed address. */
  inviteUser(email: string): Promise<AdminUser>;
  sendRecovery(id: string): Promise<AdminUser>;
  sendMagicLink(id: string): Promise<AdminUser>;
  /** Ends every session of the user (501 with hosted Supabase, which has no such call). */
  signOut(id: string): Promise<AdminUser>;
  /** GoTrue's ban_duration: '24h', '1h30m'; 'none' lifts the ban. */
  ban(id: string, duration: string): Promise<AdminUser>;
  /** The filtered list as a CSV file. */
  exportCsv(params: { status: UserStatus; search: string }): Promise<Blob>;
}

/** The user row of an answer, whether the server sends it bare or as `{ user }` like create and delete. */
function userOf(payload: AdminUser | { user: AdminUser }): AdminUser {
  return 'user' in payload && typeof payload.user === 'object' ? payload.user : (payload as AdminUser);
}

/**
 * The admin API client. Every request carries the signed-in user's access token; the server checks
 * the admin role and holds any service credential itself.
 */
export function createAdminApi(
  getAccessToken: () => Promise<string | null>,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): AdminApi {
  async function send(method: string, path: string, body?: unknown, accept = 'application/json') {
    const token = await getAccessToken();
    let response: Response;
    try {
      response = await fetchImpl(`/api/admin${path}`, {
        method,
        headers: {
          Accept: accept,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new AdminApiError(0, 'network_error', 'The server could not be reached.');
    }
    if (!response.ok) {
      const payload: unknown = await response.json().catch(() => null);
      const p = payload as { error?: unknown; message?: unknown } | null;
      throw new AdminApiError(
        response.status,
        typeof p?.error === 'string' ? p.error : 'request_failed',
        typeof p?.message === 'string' ? p.message : `The server answered ${response.status}.`,
      );
    }
    return response;
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(method, path, body);
    return (await response.json().catch(() => null)) as T;
  }
  const userAction = async (path: string, body?: unknown) =>
    (await request<{ user: AdminUser }>('POST', path, body)).user;
  const at = (id: string) => `/users/${encodeURIComponent(id)}`;

  return {
    listUsers({ status, search, cursor, limit = 25 }) {
      const query = new URLSearchParams({ status, limit: String(limit) });
      if (search.trim()) query.set('search', search.trim());
      if (cursor) query.set('cursor', cursor);
      return request<UsersPage>('GET', `/users?${query}`);
    },
    stats: (days = 30) => request<AdminStats>('GET', `/stats?days=${days}`),
    createUser: async (input) => (await request<{ user: AdminUser }>('POST', '/users', input)).user,
    deleteUser: async (id) =>
      (await request<{ user: AdminUser }>('DELETE', `/users/${encodeURIComponent(id)}`)).user,
    audit: async (limit = 10) =>
      (await request<{ entries: AuditEntry[] }>('GET', `/audit?limit=${limit}`)).entries,
    verifyUsers: async (ids) =>
      (await request<{ verified: string[] }>('POST', '/users/verify', { ids })).verified,
    setRole: async (id, role) =>
      userOf(
        await request<AdminUser | { user: AdminUser }>('PUT', `/users/${encodeURIComponent(id)}/role`, {
          role,
        }),
      ),
    getUser: async (id) => (await request<{ user: AdminUserDetail }>('GET', at(id))).user,
    inviteUser: (email) => userAction('/users/invite', { email }),
    sendRecovery: (id) => userAction(`${at(id)}/recovery`),
    sendMagicLink: (id) => userAction(`${at(id)}/magic-link`),
    signOut: (id) => userAction(`${at(id)}/sign-out`),
    ban: (id, duration) => userAction(`${at(id)}/ban`, { duration }),
    async exportCsv({ status, search }) {
      const query = new URLSearchParams({ status });
      if (search.trim()) query.set('search', search.trim());
      return (await send('GET', `/users.csv?${query}`, undefined, 'text/csv')).blob();
    },
  };
}
