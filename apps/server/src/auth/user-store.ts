// Writing the auth's one user record (auth_users, read through users.ts): creating, updating,
// deleting and listing accounts, for sign-up links, the admin APIs and start-up. Passwords are
// hashed by the auth service's hasher when the caller passes it.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '@engage/db';
import { parseBanDuration } from './ban-duration.js';
import { AuthError, authErrors } from './errors.js';
import { assertMetadataFits } from './metadata.js';
import { hashPassword, weakPassword } from './passwords.js';
import { findUserByEmail, findUserById, USER_COLUMNS, type UserRow } from './users.js';

export interface CreateUserInput {
  email: string;
  /** A random password is set when omitted (the user then needs a recovery link). */
  password?: string;
  /** Mark the email as confirmed now. */
  emailConfirm?: boolean;
  appMetadata?: Record<string, unknown>;
  userMetadata?: Record<string, unknown>;
  /** An explicit id (UUID); generated otherwise. */
  id?: string;
  /** The auth service's hasher (AuthServiceOptions.hashPassword); the real one by default. */
  hashPassword?: (password: string) => Promise<string>;
}

export const emailExists = () =>
  new AuthError(422, 'email_exists', 'A user with this email address has already been registered');

// GoTrue's rule (checkmail.ValidateFormat): the HTML5 address pattern, one or more DNS labels, no
// quoted local parts or IP literals.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * Lower-cases and checks an address as GoTrue does (sign-up, recover, admin create and update);
 * throws 400 `validation_failed`. Surrounding spaces are forgiven.
 */
export function normalizeEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!value) throw authErrors.validation('An email address is required');
  if (value.length > 255) throw authErrors.validation('An email address is too long');
  if (!EMAIL.test(value)) throw authErrors.validation('Unable to validate email address: invalid format');
  return value;
}

/**
 * Creates a user. Throws 422 `email_exists` for a taken address, 422 `weak_password` for a password
 * too short or too common, and 400 `validation_failed` for a bad address or password format
 * (passwords.ts).
 */
export async function createUser(db: Queryable, input: CreateUserInput): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  const password = input.password ?? randomBytes(24).toString('base64url');
  const weak = weakPassword(password);
  if (weak) throw weak;
  if (await findUserByEmail(db, email)) throw emailExists();
  const hash = await (input.hashPassword ?? hashPassword)(password);
  try {
    const { rows } = await db.query<UserRow>(
      `insert into auth_users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
       values (coalesce($1::uuid, gen_random_uuid()), $2, $3, case when $4 then now() end, $5::jsonb, $6::jsonb)
       returning ${USER_COLUMNS}`,
      [
        input.id ?? null,
        email,
        hash,
        input.emailConfirm === true,
        JSON.stringify(input.appMetadata ?? {}),
        JSON.stringify(input.userMetadata ?? {}),
      ],
    );
    return rows[0] as UserRow;
  } catch (error) {
    // A concurrent insert of the same address lost the race on the unique index.
    if ((error as { code?: string }).code === '23505') throw emailExists();
    throw error;
  }
}

export interface UpdateUserInput {
  email?: string;
  password?: string;
  emailConfirm?: boolean;
  /** Merged into the stored app_metadata (a null value removes the key). */
  appMetadata?: Record<string, unknown>;
  /** Merged into the stored user_metadata. */
  userMetadata?: Record<string, unknown>;
  /** Go-style duration ("24h", "30m") or "none". */
  banDuration?: string;
  /** The clock a ban counts from (milliseconds); Date.now() by default. */
  now?: number;
  /** The auth service's hasher (AuthServiceOptions.hashPassword); the real one by default. */
  hashPassword?: (password: string) => Promise<string>;
}

const merge = (base: Record<string, unknown>, patch: Record<string, unknown>) => {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
};

/** Updates a user as an admin would; throws 404 `user_not_found`, 422 `email_exists`. */
export async function updateUserById(db: Queryable, id: string, input: UpdateUserInput): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw authErrors.userNotFound();
  const email = input.email === undefined ? user.email : normalizeEmail(input.email);
  if (email !== user.email) {
    const other = await findUserByEmail(db, email);
    if (other && other.id !== id) throw emailExists();
  }
  const appMetadata = input.appMetadata
    ? merge(user.raw_app_meta_data, input.appMetadata)
    : user.raw_app_meta_data;
  const userMetadata = input.userMetadata
    ? merge(user.raw_user_meta_data, input.userMetadata)
    : user.raw_user_meta_data;
  // Each patch is capped by the schema; the merged result is what is stored, so it is what counts.
  if (input.appMetadata) assertMetadataFits(appMetadata, 'app_metadata');
  if (input.userMetadata) assertMetadataFits(userMetadata, 'user_metadata');
  let hash = user.encrypted_password;
  if (input.password !== undefined) {
    const weak = weakPassword(input.password);
    if (weak) throw weak;
    hash = await (input.hashPassword ?? hashPassword)(input.password);
  }
  let bannedUntil = user.banned_until;
  if (input.banDuration !== undefined) {
    const ms = parseBanDuration(input.banDuration);
    bannedUntil = ms === null ? null : new Date((input.now ?? Date.now()) + ms);
  }
  const { rows } = await db.query<UserRow>(
    `update auth_users set email = $2, encrypted_password = $3,
       email_confirmed_at = case when $4::boolean is true then coalesce(email_confirmed_at, now())
                                 when $4::boolean is false then null else email_confirmed_at end,
       raw_app_meta_data = $5::jsonb, raw_user_meta_data = $6::jsonb, banned_until = $7, updated_at = now()
     where id = $1 returning ${USER_COLUMNS}`,
    [
      id,
      email,
      hash,
      input.emailConfirm ?? null,
      JSON.stringify(appMetadata),
      JSON.stringify(userMetadata),
      bannedUntil,
    ],
  );
  return rows[0] as UserRow;
}

/** Deletes a user with its sessions, tokens, factors and mail. True when a row was deleted. */
export async function deleteUser(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from auth_users where id = $1', [id]);
  return rowCount > 0;
}

/** The user, or null. */
export const getUserById = (db: Queryable, id: string): Promise<UserRow | null> => findUserById(db, id);

export interface UserPage {
  users: UserRow[];
  total: number;
}

/** A page of users, newest first (page from 1). */
export async function listUsers(db: Queryable, page: number, perPage: number): Promise<UserPage> {
  const [{ rows }, count] = await Promise.all([
    db.query<UserRow>(
      `select ${USER_COLUMNS} from auth_users order by created_at desc, id limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    ),
    db.query<{ n: number }>('select count(*)::int as n from auth_users'),
  ]);
  return { users: rows, total: count.rows[0]?.n ?? 0 };
}
