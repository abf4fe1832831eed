import { ACCOUNT_SUMMARY_COLUMNS, appMetadataOf, type AccountSummaryRow } from '../auth/users.js';
import { roleOf } from '../platform/http/require-auth.js';
import { activeBan, type AdminUser } from './types.js';

/**
 * The embedded auth's user record (auth/users.ts, the one model of auth_users) as the dashboard
 * reads it: the account summary's columns (no password hash, no user metadata), plus the creation
 * time as PostgreSQL text, whose microseconds a JS Date would lose (the keyset of the list's pages).
 * @module
 */

export type UserRow = AccountSummaryRow & { cursor_at: string };

export const USER_COLUMNS = `${ACCOUNT_SUMMARY_COLUMNS}, created_at::text as cursor_at`;

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function toUser(row: UserRow): AdminUser {
  // An anonymous user is never an admin nor an operator, whatever its app_metadata says.
  const role = row.is_anonymous ? 'user' : roleOf(appMetadataOf(row));
  return {
    id: row.id,
    email: row.email,
    created_at: iso(row.created_at) as string,
    email_confirmed_at: iso(row.email_confirmed_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    is_admin: role === 'admin',
    role,
    banned_until: activeBan(row.banned_until),
  };
}

/** `term` as a LIKE pattern matching it anywhere, its own % _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}
