/**
 * The admin dashboard's domain: what an administrator can do with the site's accounts, whoever
 * stores them (the embedded auth's auth_users table, or hosted Supabase through its admin API).
 * No HTTP here; routes/admin.ts adapts it.
 */
import type { UserRole } from '../middleware/require-auth.js';

export type { UserRole };

/** A user as the admin screen sees one (SPEC §3 'User (admin screen)'), in Supabase's field names. */
export interface AdminUser {
  id: string;
  email: string;
  created_at: string;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
  /** True when app_metadata.role is 'admin'. */
  is_admin: boolean;
  /** app_metadata.role when 'admin' or 'operator', else 'user' (see roleOf). */
  role: UserRole;
}

export type UserStatus = 'all' | 'verified' | 'unverified';

/** A position in the newest-first list: the creation time (full precision, as text) and the id. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

export interface ListUsersQuery {
  /** Case-insensitive substring of the email; empty or undefined means every user. */
  search?: string;
  status: UserStatus;
  /** Page size, 1 to 200. */
  limit: number;
  /** Continue after this user (keyset pagination); undefined for the first page. */
  after?: ListCursor;
}

export interface ListUsersPage {
  users: AdminUser[];
  /** How many users match the search and status, over all pages. */
  total: number;
  /** Pass as `after` to read the next page; null on the last page. */
  next: ListCursor | null;
}

export interface UserStats {
  total: number;
  verified: number;
  pending: number;
}

export interface SignupDay {
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  count: number;
}

/** The admin operations of the dashboard. */
export interface UserAdmin {
  readonly kind: 'embedded' | 'hosted';
  listUsers(query: ListUsersQuery): Promise<ListUsersPage>;
  /** Total, verified and pending counts. */
  stats(): Promise<UserStats>;
  /** Sign-ups per UTC day for the last `days` days (today included), oldest first, zeros filled. */
  signupsPerDay(days: number): Promise<SignupDay[]>;
  /** Creates a user whose email is confirmed at once. Throws AdminError 'email_exists'. */
  createUser(input: { email: string; password: string }): Promise<AdminUser>;
  /** Deletes a user and returns it. Throws AdminError 'user_not_found'. */
  deleteUser(id: string): Promise<AdminUser>;
  getUser(id: string): Promise<AdminUser | null>;
  /**
   * Confirms the given users' emails now, only where not yet confirmed. Returns the users that
   * changed (ids that are unknown or already confirmed are left alone and not returned).
   */
  verifyUsers(ids: readonly string[]): Promise<AdminUser[]>;
  /**
   * Sets app_metadata.role (removed for 'user'; other app_metadata keys kept) and returns the user.
   * Throws AdminError 'user_not_found', or 'last_admin' when this would leave no administrator.
   */
  setRole(id: string, role: UserRole): Promise<AdminUser>;
}

export type AdminErrorCode =
  | 'email_exists'
  | 'user_not_found'
  | 'weak_password'
  | 'cannot_delete_self'
  | 'last_admin'
  | 'upstream_error';

const statusOf: Record<AdminErrorCode, number> = {
  email_exists: 422,
  user_not_found: 404,
  weak_password: 422,
  cannot_delete_self: 400,
  last_admin: 409,
  upstream_error: 502,
};

export const LAST_ADMIN_MESSAGE = 'At least one administrator must remain.';

/** A refusal the caller can act on, with the HTTP status the route answers. */
export class AdminError extends Error {
  readonly status: number;
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
    this.status = statusOf[code];
  }
}

/** The message GoTrue uses for an email that is taken; the site shows it as it is. */
export const EMAIL_EXISTS_MESSAGE = 'A user with this email address has already been registered';

/** Orders users newest first, ties by id descending: the one order of every list. */
export function compareNewestFirst(
  a: { createdAtKey: string | number; id: string },
  b: { createdAtKey: string | number; id: string },
): number {
  if (a.createdAtKey !== b.createdAtKey) return a.createdAtKey > b.createdAtKey ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}
