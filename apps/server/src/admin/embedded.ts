import type { Db } from '@engage/db';
import { AuthError } from '../auth/errors.js';
import type { AuthService } from '../auth/service.js';
import { createConfirmedUser, deleteUser, setRole, verifyUsers } from './embedded-changes.js';
import { getUser, listUsers, signupsPerDay, userStats } from './embedded-queries.js';
import { containsPattern } from './embedded-rows.js';
import {
  ACCEPT_INVITE_PATH,
  AdminError,
  EMAIL_EXISTS_MESSAGE,
  fromGoTrueUser,
  summaryOf,
  USER_NOT_FOUND_MESSAGE,
  type AdminUserDetail,
  type ListUsersQuery,
  type UserAdmin,
  assertBanDuration,
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
 * The embedded implementation: the reads (embedded-queries.ts) and changes (embedded-changes.ts)
 * in SQL on auth_users. The mailing and session actions go through the auth service's admin functions
 * (`auth`); without it (a test of the listing alone) they answer 'not_supported'.
 */
export function createEmbeddedUserAdmin(db: Db, auth?: AuthService['admin'] | null): UserAdmin {
  const service = () => {
    if (!auth) throw new AdminError('not_supported', 'The embedded auth service is not running.');
    return auth;
  };

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
    const user = await getUser(db, id);
    if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    return user;
  }

  return {
    kind: 'embedded',
    listUsers: (query) => listUsers(db, query),
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
      assertBanDuration(duration);
      try {
        return summaryOf(fromGoTrueUser(await service().banUser(id, duration)));
      } catch (error) {
        return fromAuthError(error);
      }
    },
    async *exportUsers(filter, pageSize) {
      let after: ListUsersQuery['after'];
      do {
        const page = await listUsers(db, { ...filter, limit: pageSize, after }, false);
        if (page.users.length) yield page.users;
        after = page.next ?? undefined;
      } while (after);
    },
    stats: () => userStats(db),
    signupsPerDay: (days) => signupsPerDay(db, days),
    getUser: (id) => getUser(db, id),
    createUser: (input) => createConfirmedUser(db, input),
    deleteUser: (id) => deleteUser(db, id),
    verifyUsers: (ids) => verifyUsers(db, ids),
    setRole: (id, role) => setRole(db, id, role),
  };
}
