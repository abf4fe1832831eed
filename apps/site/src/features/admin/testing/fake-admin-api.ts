import { USER_SEARCH_MAX_LENGTH } from '@engage/http-contract';
import {
  EngageApiError,
  roleOf,
  USER_ROLES,
  type AdminApi,
  type AdminPasskey,
  type AdminUser,
  type AuditEntry,
  type BackupStatus,
  type OAuthClient,
} from '../api/client';
import { fakeOAuthClients } from './fake-oauth-clients';

let counter = 0;
/** A user for tests; ids are UUID-shaped so the SQL generator accepts them. */
export function fakeUser(email: string, overrides: Partial<AdminUser> = {}): AdminUser {
  counter++;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    email,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, counter)).toISOString(),
    email_confirmed_at: null,
    last_sign_in_at: null,
    is_admin: overrides.role === 'admin',
    role: overrides.is_admin ? 'admin' : 'user',
    banned_until: null,
    ...overrides,
  };
}

/**
 * An in-memory stand-in for /api/admin with the server's rules (search, filters, pages of `limit`,
 * 422 for a taken email; for roles 400 for the caller's own, 409 for the last admin), so components
 * are tested against behaviour rather than canned answers. `currentUserId` is the signed-in admin.
 */
export function createFakeAdminApi(
  initial: AdminUser[],
  currentUserId: string | null = null,
): AdminApi & {
  users: AdminUser[];
  failLists: boolean;
  holdRoleChanges: Promise<void> | null;
  /** Mails "sent": [kind, address], oldest first. */
  mails: [string, string][];
  /** The ids of the mails revealed (each is audited on the server). */
  revealed: string[];
  /** Users signed out everywhere, by id. */
  signedOut: string[];
  /** The last export's filter. */
  exports: { status: string; search: string }[];
  /** What GET /backups answers. */
  backupStatus: BackupStatus;
  /** The registered OAuth clients, newest first, with the secret the server would only hash. */
  oauthClientList: OAuthClient[];
  /** Every user's passkeys. */
  passkeys: (AdminPasskey & { userId: string })[];
} {
  const state = {
    users: [...initial],
    failLists: false,
    /** While set, role changes wait for it: the test sees the saving state. */
    holdRoleChanges: null as Promise<void> | null,
    mails: [] as [string, string][],
    revealed: [] as string[],
    signedOut: [] as string[],
    exports: [] as { status: string; search: string }[],
    backupStatus: { mode: 'off', last: null } as BackupStatus,
    oauthClientList: [] as OAuthClient[],
    passkeys: [] as (AdminPasskey & { userId: string })[],
  };
  const find = (id: string) => {
    const user = state.users.find((u) => u.id === id);
    if (!user) throw new EngageApiError(404, 'user_not_found', 'No user has this id.');
    return user;
  };
  const log: AuditEntry[] = [];
  const record = (action: AuditEntry['action'], user: AdminUser, detail: string | null = null) =>
    log.unshift({
      id: log.length + 1,
      actor_id: 'admin',
      actor_email: 'admin@example.com',
      action,
      target_id: user.id,
      target_email: user.email,
      detail,
      created_at: new Date().toISOString(),
    });
  const api: AdminApi = {
    async listUsers({ status, search, cursor, limit = 25 }) {
      if (state.failLists)
        throw new EngageApiError(500, 'internal_error', 'Something went wrong on the server.');
      if (search && search.length > USER_SEARCH_MAX_LENGTH)
        throw new EngageApiError(400, 'validation_failed', 'The search is at most 255 characters.');
      const matching = state.users
        .filter((u) => !search || u.email.toLowerCase().includes(search.toLowerCase()))
        .filter((u) => status === 'all' || (status === 'verified') === (u.email_confirmed_at !== null))
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
      const start = cursor ? Number(cursor) : 0;
      const users = matching.slice(start, start + limit);
      return {
        users,
        total: matching.length,
        nextCursor: start + limit < matching.length ? String(start + limit) : null,
      };
    },
    async stats() {
      const verified = state.users.filter((u) => u.email_confirmed_at).length;
      return {
        total: state.users.length,
        verified,
        pending: state.users.length - verified,
        signupsPerDay: [
          { day: '2026-01-01', count: 0 },
          { day: '2026-01-02', count: state.users.length },
        ],
      };
    },
    async createUser({ email, password }) {
      if (state.users.some((u) => u.email === email.toLowerCase()))
        throw new EngageApiError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      if (password.length < 6)
        throw new EngageApiError(422, 'weak_password', 'Password should be at least 6 characters.');
      const user = fakeUser(email.toLowerCase(), {
        created_at: new Date().toISOString(),
        email_confirmed_at: new Date().toISOString(),
      });
      state.users.push(user);
      record('user.create', user);
      return user;
    },
    async deleteUser(id) {
      const user = state.users.find((u) => u.id === id);
      if (!user) throw new EngageApiError(404, 'user_not_found', 'No user has this id.');
      state.users = state.users.filter((u) => u.id !== id);
      record('user.delete', user);
      return user;
    },
    async audit(limit = 10) {
      return log.slice(0, limit);
    },
    async verifyUsers(ids) {
      const changed = state.users.filter((u) => ids.includes(u.id) && !u.email_confirmed_at);
      for (const u of changed) {
        u.email_confirmed_at = new Date().toISOString();
        record('user.verify', u);
      }
      return changed.map((u) => u.id);
    },
    async setRole(id, role) {
      if (state.holdRoleChanges) await state.holdRoleChanges;
      if (!USER_ROLES.includes(role))
        throw new EngageApiError(400, 'validation_failed', 'role must be user, operator or admin.');
      const user = state.users.find((u) => u.id === id);
      if (!user) throw new EngageApiError(404, 'user_not_found', 'No user has this id.');
      if (id === currentUserId)
        throw new EngageApiError(400, 'self_role_change', 'You cannot change your own role.');
      const admins = state.users.filter((u) => roleOf(u) === 'admin');
      if (roleOf(user) === 'admin' && role !== 'admin' && admins.length === 1)
        throw new EngageApiError(409, 'last_admin', 'The last admin cannot lose the admin role.');
      // A new object, as a refetch from a server would give: the list sees a change.
      const updated = { ...user, role, is_admin: role === 'admin' };
      state.users = state.users.map((u) => (u.id === id ? updated : u));
      record('user.role', updated, role);
      return updated;
    },
    async listPasskeys(id) {
      find(id);
      return state.passkeys.filter((p) => p.userId === id).map(({ userId: _, ...p }) => p);
    },
    async deletePasskey(id, passkeyId) {
      const user = find(id);
      const passkey = state.passkeys.find((p) => p.userId === id && p.id === passkeyId);
      if (!passkey)
        throw new EngageApiError(404, 'passkey_not_found', 'This user has no passkey with this id.');
      state.passkeys = state.passkeys.filter((p) => p !== passkey);
      record('user.passkey_delete', user, passkey.friendly_name);
      const { userId: _, ...rest } = passkey;
      return rest;
    },
    async getUser(id) {
      const user = find(id);
      return {
        ...user,
        invited_at: null,
        factors: [],
        app_metadata: { provider: 'email', ...(roleOf(user) === 'user' ? {} : { role: roleOf(user) }) },
        user_metadata: {},
      };
    },
    async inviteUser(email) {
      const address = email.trim().toLowerCase();
      const existing = state.users.find((u) => u.email === address);
      if (existing?.email_confirmed_at)
        throw new EngageApiError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      const user = existing ?? fakeUser(address, { created_at: new Date().toISOString() });
      if (!existing) state.users.push(user);
      state.mails.push(['invite', address]);
      record('user.invite', user);
      return user;
    },
    async sendRecovery(id) {
      const user = find(id);
      state.mails.push(['recovery', user.email]);
      record('user.recovery', user);
      return user;
    },
    async sendMagicLink(id) {
      const user = find(id);
      state.mails.push(['magic_link', user.email]);
      record('user.magic_link', user);
      return user;
    },
    async signOut(id) {
      const user = find(id);
      state.signedOut.push(id);
      record('user.sign_out', user);
      return user;
    },
    async ban(id, duration) {
      const user = find(id);
      if (id === currentUserId)
        throw new EngageApiError(400, 'cannot_ban_self', 'You cannot ban your own account.');
      const hours = /^(\d+)h$/.exec(duration);
      if (duration !== 'none' && !hours)
        throw new EngageApiError(400, 'invalid_duration', "The duration must be like '24h'.");
      const updated = {
        ...user,
        banned_until: hours ? new Date(Date.now() + Number(hours[1]) * 3600_000).toISOString() : null,
      };
      state.users = state.users.map((u) => (u.id === id ? updated : u));
      record('user.ban', updated, duration);
      return updated;
    },
    async exportCsv({ status, search }) {
      state.exports.push({ status, search });
      return new Blob(['id,email\r\n'], { type: 'text/csv' });
    },
    backups: async () => state.backupStatus,
    ...fakeOAuthClients(state),
    embed: async () => ({
      origin: 'http://localhost:8787',
      origins: ['https://shop.example'],
      script: {
        script: '/embed.js',
        hashedScript: '/embed/embed-0123456789.js',
        integrity: `sha384-${'A'.repeat(64)}`,
        gzipBytes: 3000,
      },
      assistants: [
        { page: 'index', id: 'asst_index', embeddable: true },
        { page: 'ediscovery', id: 'asst_ediscovery', embeddable: false },
      ],
    }),
    async revealOutboxMail(id: string) {
      const mail = fullMails().find((m) => m.id === id);
      if (!mail) throw new EngageApiError(404, 'mail_not_found', 'There is no such mail in the outbox.');
      state.revealed.push(id);
      return mail;
    },
    async outbox(limit = 20) {
      // Masked as the server lists them: links and codes only once revealed.
      const masked = fullMails().map((m) => ({
        ...m,
        text: m.text.replace(/https?:\/\/\S+/g, '[link hidden]'),
        links: m.links.map(({ label }) => ({ label, href: '' })),
        masked: true,
      }));
      return { delivery: 'outbox' as const, mails: masked.reverse().slice(0, limit) };
    },
  };
  /** The mails "sent" by the actions above, oldest first, each with the one link the server's templates carry. */
  function fullMails() {
    const subjects: Record<string, [string, string]> = {
      invite: ['You have been invited', 'Accept the invitation'],
      recovery: ['Reset your password', 'Reset password'],
      magic_link: ['Your sign-in link', 'Sign in'],
    };
    const mails = state.mails.map(([kind, to], i) => {
      const [subject, label] = subjects[kind] ?? [kind, 'Open'];
      const href = `http://localhost:8787/auth/v1/verify?token=t${i}&type=${kind}`;
      return {
        id: `mail-${i}`,
        kind,
        to,
        subject,
        created_at: new Date(Date.UTC(2026, 0, 2, 0, i)).toISOString(),
        text: `${label}: ${href}`,
        links: [{ label, href }],
        masked: false,
      };
    });
    return mails;
  }
  return Object.assign(state, api);
}
