import { AdminApiError, type AdminApi, type AdminUser, type AuditEntry } from '../api/client';

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
    is_admin: false,
    ...overrides,
  };
}

/**
 * An in-memory stand-in for /api/admin with the server's rules (search, filters, pages of `limit`,
 * 422 for a taken email), so components are tested against behaviour rather than canned answers.
 */
export function createFakeAdminApi(
  initial: AdminUser[],
): AdminApi & { users: AdminUser[]; failLists: boolean } {
  const state = { users: [...initial], failLists: false };
  const log: AuditEntry[] = [];
  const record = (action: AuditEntry['action'], user: AdminUser) =>
    log.unshift({
      id: log.length + 1,
      actor_id: 'admin',
      actor_email: 'admin@example.com',
      action,
      target_id: user.id,
      target_email: user.email,
      created_at: new Date().toISOString(),
    });
  const api: AdminApi = {
    async listUsers({ status, search, cursor, limit = 25 }) {
      if (state.failLists)
        throw new AdminApiError(500, 'internal_error', 'Something went wrong on the server.');
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
        throw new AdminApiError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      if (password.length < 6)
        throw new AdminApiError(422, 'weak_password', 'Password should be at least 6 characters.');
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
      if (!user) throw new AdminApiError(404, 'user_not_found', 'No user has this id.');
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
  };
  return Object.assign(state, api);
}
