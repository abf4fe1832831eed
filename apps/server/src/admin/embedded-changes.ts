import type { Db, Queryable } from '@engage/db';
import { AuthError } from '../auth/errors.js';
import { createUser as createAuthUser } from '../auth/user-store.js';
import { getUser } from './embedded-queries.js';
import { toUser, USER_COLUMNS, type UserRow } from './embedded-rows.js';
import {
  AdminError,
  EMAIL_EXISTS_MESSAGE,
  LAST_ADMIN_MESSAGE,
  USER_NOT_FOUND_MESSAGE,
  type AdminUser,
  type UserRole,
} from './types.js';

/**
 * What the dashboard changes of the embedded auth's users, in SQL on auth_users: creating a
 * confirmed user, deleting, confirming, and changing a role, never leaving the site without an admin.
 * @module
 */

export async function createConfirmedUser(
  db: Queryable,
  { email, password }: { email: string; password: string },
): Promise<AdminUser> {
  // The auth module's own creation (hashing, address rules, the unique-address race), confirmed at once.
  try {
    const created = await createAuthUser(db, {
      email,
      password,
      emailConfirm: true,
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    const user = await getUser(db, created.id);
    if (!user) throw new AdminError('user_not_found', USER_NOT_FOUND_MESSAGE);
    return user;
  } catch (error) {
    if (error instanceof AuthError && error.code === 'email_exists')
      throw new AdminError('email_exists', EMAIL_EXISTS_MESSAGE);
    if (error instanceof AuthError && (error.code === 'weak_password' || error.code === 'validation_failed'))
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

export async function deleteUser(db: Db, id: string): Promise<AdminUser> {
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

export async function verifyUsers(db: Queryable, ids: readonly string[]): Promise<AdminUser[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<UserRow>(
    `update auth_users set email_confirmed_at = now(), updated_at = now()
      where id = any($1::uuid[]) and email_confirmed_at is null and not is_anonymous
      returning ${USER_COLUMNS}`,
    [[...ids]],
  );
  return rows.map(toUser);
}

export async function setRole(db: Db, id: string, role: UserRole): Promise<AdminUser> {
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
