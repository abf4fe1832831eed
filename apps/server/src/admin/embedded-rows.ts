import type { AdminUser, UserRole } from './types.js';

/**
 * The auth_users rows the embedded user admin (./embedded.ts) reads, and their mapping to the admin
 * API's users; the LIKE pattern of its search.
 * @module
 */

export interface UserRow {
  id: string;
  email: string;
  created_at: Date | string;
  email_confirmed_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  is_admin: boolean;
  role: UserRole;
  banned_until: Date | string | null;
  /** created_at as PostgreSQL text: microsecond precision, which a JS Date would lose. */
  cursor_at: string;
}

export const USER_COLUMNS = `id, email, created_at, email_confirmed_at, last_sign_in_at,
  coalesce(raw_app_meta_data->>'role' = 'admin', false) as is_admin,
  case raw_app_meta_data->>'role' when 'admin' then 'admin' when 'operator' then 'operator' else 'user' end as role,
  case when banned_until > now() then banned_until end as banned_until,
  created_at::text as cursor_at`;

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function toUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    created_at: iso(row.created_at) as string,
    email_confirmed_at: iso(row.email_confirmed_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    is_admin: row.is_admin,
    role: row.role,
    banned_until: iso(row.banned_until),
  };
}

/** `term` as a LIKE pattern matching it anywhere, its own % _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}
