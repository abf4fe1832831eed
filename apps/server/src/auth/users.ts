import { createHash } from 'node:crypto';
import type { Queryable } from '@engage/db';

/** One row of auth_users as the service reads it. */
export interface UserRow {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  banned_until: Date | null;
  invited_at: Date | null;
  /** The pending new address of an email change. */
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_confirm_status: number;
  reauthentication_sent_at: Date | null;
  /** An anonymous user (AUTH_ANONYMOUS): no address (''), until it adds one. */
  is_anonymous: boolean;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'phone' | 'webauthn';
  status: 'unverified' | 'verified';
  secret: string;
  created_at: Date;
  updated_at: Date;
  last_challenged_at: Date | null;
}

export const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_sent_at,
  recovery_sent_at, banned_until, invited_at, email_change, email_change_sent_at,
  email_change_confirm_status, reauthentication_sent_at, is_anonymous`;

/**
 * The columns that say who an account is and how it stands, without its password hash or metadata
 * beyond app_metadata (the role): what a list of accounts reads, one row per account.
 */
export const ACCOUNT_SUMMARY_COLUMNS = `id, email, email_confirmed_at, last_sign_in_at, raw_app_meta_data,
  created_at, banned_until, is_anonymous`;

export type AccountSummaryRow = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'email_confirmed_at'
  | 'last_sign_in_at'
  | 'raw_app_meta_data'
  | 'created_at'
  | 'banned_until'
  | 'is_anonymous'
>;

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth_users where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  // Anonymous users all have the empty address: it names no one.
  if (!email.trim()) return null;
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth_users where lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

export async function listFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await db.query<FactorRow>(
    'select * from auth_factors where user_id = $1 order by created_at',
    [userId],
  );
  return rows;
}

/** Whether the user has a verified factor now: privileged routes then need an aal2 token. */
export async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select exists (select 1 from auth_factors where user_id = $1 and status = 'verified') as found`,
    [userId],
  );
  return rows[0]?.found === true;
}

const iso = (d: Date | string | null | undefined) =>
  d === null || d === undefined ? undefined : new Date(d).toISOString();

/** A stable UUID-shaped id for the user's email identity (GoTrue keeps a separate identities row). */
function identityId(userId: string): string {
  const h = createHash('sha256').update(`identity:${userId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function factorJson(f: FactorRow) {
  return {
    id: f.id,
    friendly_name: f.friendly_name ?? undefined,
    factor_type: f.factor_type,
    status: f.status,
    created_at: iso(f.created_at),
    updated_at: iso(f.updated_at),
    phone: '',
    last_challenged_at: iso(f.last_challenged_at) ?? null,
  };
}

/**
 * The app_metadata every user carries (provider 'email', or GoTrue's 'anonymous'), with the stored
 * values on top.
 */
export const appMetadataOf = (u: Pick<UserRow, 'raw_app_meta_data' | 'is_anonymous'>) => {
  const provider = u.is_anonymous ? 'anonymous' : 'email';
  return { provider, providers: [provider], ...u.raw_app_meta_data } as Record<string, unknown>;
};

/** GoTrue's User object; null fields are omitted, `factors` only when non-empty. */
export function userJson(u: UserRow, factors: FactorRow[] = []) {
  const identityData = {
    sub: u.id,
    email: u.email,
    email_verified: Boolean(u.email_confirmed_at),
    phone_verified: false,
  };
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    phone: '',
    email_confirmed_at: iso(u.email_confirmed_at),
    confirmed_at: iso(u.email_confirmed_at),
    confirmation_sent_at: iso(u.confirmation_sent_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    email_change_sent_at: iso(u.email_change_sent_at),
    new_email: u.email_change || undefined,
    invited_at: iso(u.invited_at),
    banned_until: iso(u.banned_until),
    app_metadata: appMetadataOf(u),
    user_metadata: u.raw_user_meta_data,
    // GoTrue keeps no identity for an anonymous user.
    identities: u.is_anonymous
      ? []
      : [
          {
            identity_id: identityId(u.id),
            id: u.id,
            user_id: u.id,
            identity_data: identityData,
            provider: 'email',
            last_sign_in_at: iso(u.last_sign_in_at) ?? iso(u.created_at),
            created_at: iso(u.created_at),
            updated_at: iso(u.updated_at),
            email: u.email,
          },
        ],
    factors: factors.length ? factors.map(factorJson) : undefined,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    is_anonymous: u.is_anonymous,
  };
}

export type UserJson = ReturnType<typeof userJson>;

/** True when `app_metadata.role` is 'admin' (never for an anonymous user). */
export const isAdminRow = (u: UserRow) => !u.is_anonymous && appMetadataOf(u).role === 'admin';
