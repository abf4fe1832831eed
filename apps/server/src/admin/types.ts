/**
 * The admin dashboard's domain: what an administrator can do with the site's accounts, whoever
 * stores them (the embedded auth's auth_users table, or hosted Supabase through its admin API).
 * No HTTP here; admin/routes.ts adapts it.
 */
import type { AdminFactor, AdminUser, AdminUserDetail, SignupDay, UserStatus } from '@engage/http-contract';
import { BAN_TOO_LONG_MESSAGE, banDurationProblem } from '../auth/ban-duration.js';
import { roleOf, type UserRole } from '../platform/http/require-auth.js';

export type { UserRole };

// The wire shapes (row, details, status, signup day) are the HTTP contract's, shared with the site.
export type { AdminFactor, AdminUser, AdminUserDetail, SignupDay, UserStatus };

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
  /** Deletes a user and returns it. Throws AdminError 'user_not_found', or 'last_admin' for the only administrator. */
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
  /** The user with factors and metadata; null for an unknown id. */
  getUserDetail(id: string): Promise<AdminUserDetail | null>;
  /**
   * Creates an unconfirmed user and mails an invitation (an unconfirmed address is invited again).
   * Throws AdminError 'email_exists' for a confirmed address.
   */
  inviteUser(email: string): Promise<AdminUser>;
  /** Mails a password-recovery link. Throws 'user_not_found', 'rate_limited'. */
  sendRecovery(id: string): Promise<AdminUser>;
  /** Mails a sign-in link (the confirmation link for an unconfirmed address). Same errors. */
  sendMagicLink(id: string): Promise<AdminUser>;
  /** Ends every session and refresh token of the user. Throws 'user_not_found', 'not_supported'. */
  signOutEverywhere(id: string): Promise<AdminUser>;
  /** GoTrue's ban_duration ('24h', '1h30m'; 'none' lifts the ban). Throws 'user_not_found', 'invalid_duration'. */
  banUser(id: string, duration: string): Promise<AdminUser>;
  /**
   * Every user matching the filter, a page at a time (`pageSize` users at most), so an export of
   * any size never holds more than one page.
   */
  exportUsers(filter: { search?: string; status: UserStatus }, pageSize: number): AsyncIterable<AdminUser[]>;
}

export type AdminErrorCode =
  | 'email_exists'
  | 'user_not_found'
  | 'weak_password'
  | 'cannot_delete_self'
  | 'last_admin'
  | 'invalid_duration'
  | 'rate_limited'
  | 'not_supported'
  | 'upstream_error'
  | 'passkey_not_found';

const statusOf: Record<AdminErrorCode, number> = {
  email_exists: 422,
  user_not_found: 404,
  weak_password: 422,
  cannot_delete_self: 400,
  last_admin: 409,
  invalid_duration: 400,
  rate_limited: 429,
  not_supported: 501,
  upstream_error: 502,
  passkey_not_found: 404,
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

/** The site's page where an invited user sets a password (features/auth, the accept-invite route). */
export const ACCEPT_INVITE_PATH = '/accept-invite';

export const USER_NOT_FOUND_MESSAGE = 'No user has this id.';

export const INVALID_DURATION_MESSAGE =
  "The duration must be like '24h', '90m' or '1h30m' (units h, m, s, ms), or 'none' to lift the ban.";

/** A ban duration GoTrue would refuse, as the admin API answers it (checked before anything is asked). */
export function assertBanDuration(duration: string): void {
  const problem = banDurationProblem(duration);
  if (problem)
    throw new AdminError(
      'invalid_duration',
      problem === 'too_long' ? BAN_TOO_LONG_MESSAGE : INVALID_DURATION_MESSAGE,
    );
}

/** A ban that has run out is no ban: the list shows null for it. */
export function activeBan(bannedUntil: string | Date | null | undefined, now = Date.now()): string | null {
  if (!bannedUntil) return null;
  const until = new Date(bannedUntil);
  return until.getTime() > now ? until.toISOString() : null;
}

/** A GoTrue user (admin API or the embedded service's userJson) as the admin screen sees it. */
export function fromGoTrueUser(user: {
  id: string;
  email?: string;
  /** Always set by GoTrue; optional only in the embedded service's JSON type. */
  created_at?: string;
  email_confirmed_at?: string | null;
  last_sign_in_at?: string | null;
  banned_until?: string | null;
  invited_at?: string | null;
  app_metadata?: Record<string, unknown> | null;
  user_metadata?: Record<string, unknown> | null;
  factors?: readonly { id: string; factor_type: string; status: string; friendly_name?: string | null }[];
}): AdminUserDetail {
  const appMetadata = user.app_metadata ?? {};
  const role = roleOf(appMetadata);
  return {
    id: user.id,
    email: user.email ?? '',
    created_at: new Date(user.created_at ?? 0).toISOString(),
    email_confirmed_at: user.email_confirmed_at ? new Date(user.email_confirmed_at).toISOString() : null,
    last_sign_in_at: user.last_sign_in_at ? new Date(user.last_sign_in_at).toISOString() : null,
    is_admin: role === 'admin',
    role,
    banned_until: activeBan(user.banned_until),
    invited_at: user.invited_at ? new Date(user.invited_at).toISOString() : null,
    factors: (user.factors ?? []).map((f) => ({
      id: f.id,
      factor_type: f.factor_type,
      status: f.status,
      friendly_name: f.friendly_name ?? null,
    })),
    app_metadata: appMetadata,
    user_metadata: user.user_metadata ?? {},
  };
}

/** The list fields of a detail (what listUsers and the actions answer). */
export function summaryOf(detail: AdminUserDetail): AdminUser {
  const { id, email, created_at, email_confirmed_at, last_sign_in_at, is_admin, role, banned_until } = detail;
  return { id, email, created_at, email_confirmed_at, last_sign_in_at, is_admin, role, banned_until };
}

/** Orders users newest first, ties by id descending: the one order of every list. */
export function compareNewestFirst(
  a: { createdAtKey: string | number; id: string },
  b: { createdAtKey: string | number; id: string },
): number {
  if (a.createdAtKey !== b.createdAtKey) return a.createdAtKey > b.createdAtKey ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}
