import type {
  OutboxMail,
  AdminPasskey,
  AdminPasskeyDeleted,
  AdminPasskeysResponse,
  AdminStats,
  AdminUser,
  AdminUserDetail,
  AuditEntry,
  AuditPage,
  BackupStatus,
  EmbedSettings,
  OutboxPage,
  UserDetailResponse,
  UserResponse,
  UserRole,
  UsersPage,
  UserStatus,
  VerifyResponse,
} from '@engage/http-contract';
import type { EngageApi } from '@/lib/engage-api';

// The wire shapes are the server's HTTP contract (types only: zod stays out of the bundle).
export type {
  AdminPasskey,
  AdminStats,
  AdminUser,
  AdminUserDetail,
  AuditEntry,
  UserRole,
  UsersPage,
  UserStatus,
};
export type { BackupStatus, EmbedSettings, OutboxMail, OutboxPage } from '@engage/http-contract';

/** An OAuth client of the embedded auth (GoTrue's shape); `client_secret` only in a create answer. */
export interface OAuthClient {
  client_id: string;
  client_name?: string;
  client_type: 'confidential' | 'public';
  redirect_uris: string[];
  created_at: string;
  client_secret?: string;
}
export interface NewOAuthClient {
  client_name: string;
  redirect_uris: string[];
  client_type: 'confidential' | 'public';
}

/** What an account may do: `operator` uses the server-held provider key, `admin` also manages users. */
export const USER_ROLES: readonly UserRole[] = ['user', 'operator', 'admin'];

/** The role a row shows. */
export function roleOf(user: AdminUser): UserRole {
  return user.role;
}

/** A refusal of the admin API: Engage's one error ({@link EngageApiError}). */
export { EngageApiError } from '@/lib/engage-api';

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
  /** The mail outbox, newest first (at most `limit`), and where mail goes; links and codes masked. */
  outbox(limit?: number): Promise<OutboxPage>;
  /** One mail whole, its links and code shown: the server writes the reveal into the audit log. */
  revealOutboxMail(id: string): Promise<OutboxMail>;
  /** Whether scheduled backups run, and the last one. */
  backups(): Promise<BackupStatus>;
  /** The OAuth clients, newest first (embedded auth); never a secret. */
  oauthClients(): Promise<OAuthClient[]>;
  /** Registers a client; a confidential one's secret is in this answer only. */
  createOAuthClient(input: NewOAuthClient): Promise<OAuthClient>;
  /** A new name and redirect URIs (the type and the secret stay). */
  updateOAuthClient(
    id: string,
    input: { client_name: string; redirect_uris: string[] },
  ): Promise<OAuthClient>;
  /** A new secret, in this answer only; the old one stops working at once. */
  regenerateOAuthClientSecret(id: string): Promise<OAuthClient>;
  deleteOAuthClient(id: string): Promise<void>;
  /** The user's passkeys. */
  listPasskeys(userId: string): Promise<AdminPasskey[]>;
  /** Removes one of the user's passkeys; the server audits it. */
  deletePasskey(userId: string, passkeyId: string): Promise<AdminPasskey>;
  /** The widget for other sites: allowed origins, the script with its SRI hash, the assistants. */
  embed(): Promise<EmbedSettings>;
}

/** The user row of an answer, whether the server sends it bare or as `{ user }` like create and delete. */
function userOf(payload: AdminUser | UserResponse): AdminUser {
  return 'user' in payload && typeof payload.user === 'object' ? payload.user : (payload as AdminUser);
}

/**
 * The admin API, over Engage's one client for its server (lib/engage-api.ts): the signed-in user's
 * token on every request; the server checks the admin role and holds any service credential itself.
 */
export function createAdminApi(server: EngageApi): AdminApi {
  const send = (method: string, path: string, body?: unknown, accept?: string) =>
    server.send(method, `/api/admin${path}`, {
      ...(body === undefined ? {} : { body }),
      ...(accept ? { accept } : {}),
    });
  const request = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    server.json<T>(method, `/api/admin${path}`, body === undefined ? {} : { body });
  const userAction = async (path: string, body?: unknown) =>
    (await request<UserResponse>('POST', path, body)).user;
  const at = (id: string) => `/users/${encodeURIComponent(id)}`;

  return {
    listUsers({ status, search, cursor, limit = 25 }) {
      const query = new URLSearchParams({ status, limit: String(limit) });
      if (search.trim()) query.set('search', search.trim());
      if (cursor) query.set('cursor', cursor);
      return request<UsersPage>('GET', `/users?${query}`);
    },
    stats: (days = 30) => request<AdminStats>('GET', `/stats?days=${days}`),
    backups: () => request<BackupStatus>('GET', '/backups'),
    createUser: async (input) => (await request<UserResponse>('POST', '/users', input)).user,
    deleteUser: async (id) => (await request<UserResponse>('DELETE', at(id))).user,
    audit: async (limit = 10) => (await request<AuditPage>('GET', `/audit?limit=${limit}`)).entries,
    verifyUsers: async (ids) => (await request<VerifyResponse>('POST', '/users/verify', { ids })).verified,
    setRole: async (id, role) =>
      userOf(await request<AdminUser | UserResponse>('PUT', `${at(id)}/role`, { role })),
    getUser: async (id) => (await request<UserDetailResponse>('GET', at(id))).user,
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
    outbox: (limit = 20) => request<OutboxPage>('GET', `/outbox?limit=${limit}`),
    revealOutboxMail: async (id) =>
      (await request<{ mail: OutboxMail }>('POST', `/outbox/${encodeURIComponent(id)}/reveal`)).mail,
    oauthClients: async () => (await request<{ clients: OAuthClient[] }>('GET', '/oauth-clients')).clients,
    createOAuthClient: async (input) =>
      (await request<{ client: OAuthClient }>('POST', '/oauth-clients', input)).client,
    updateOAuthClient: async (id, input) =>
      (await request<{ client: OAuthClient }>('PUT', `/oauth-clients/${encodeURIComponent(id)}`, input))
        .client,
    regenerateOAuthClientSecret: async (id) =>
      (
        await request<{ client: OAuthClient }>(
          'POST',
          `/oauth-clients/${encodeURIComponent(id)}/regenerate-secret`,
        )
      ).client,
    async deleteOAuthClient(id) {
      await send('DELETE', `/oauth-clients/${encodeURIComponent(id)}`);
    },
    listPasskeys: async (id) => (await request<AdminPasskeysResponse>('GET', `${at(id)}/passkeys`)).passkeys,
    deletePasskey: async (id, passkeyId) =>
      (await request<AdminPasskeyDeleted>('DELETE', `${at(id)}/passkeys/${encodeURIComponent(passkeyId)}`))
        .passkey,
    embed: () => request<EmbedSettings>('GET', '/embed'),
  };
}
