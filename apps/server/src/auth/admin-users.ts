// User administration on the embedded database: the admin API (/auth/v1/admin/users and
// /api/admin) calls these. List, search and statistics are plain SQL on auth_users.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '@engage/db';
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
  const hash = await hashPassword(password);
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
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** The longest ban: Go's longest duration (2562047h, about 292 years), past which GoTrue refuses too. */
export const MAX_BAN_HOURS = 2_562_047;
export const BAN_TOO_LONG_MESSAGE = `A ban can last at most ${MAX_BAN_HOURS}h (about 292 years); 876000h is 100 years.`;

/** Why GoTrue refuses a ban duration: not a Go duration, or longer than MAX_BAN_HOURS. */
export type BanDurationProblem = 'format' | 'too_long';

/** A ban duration in milliseconds, null for "none", or why it is refused. */
function readBanDuration(value: string): number | null | BanDurationProblem {
  if (value === 'none') return null;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let end = 0;
  for (let match = part.exec(value); match; match = part.exec(value)) {
    total += Number(match[1]) * (DURATION_UNITS[match[2] as string] as number);
    end = part.lastIndex;
  }
  if (!value || end !== value.length) return 'format';
  // Its end would be no date ("Invalid time value").
  if (!(total <= MAX_BAN_HOURS * 3_600_000)) return 'too_long';
  return total;
}

/** Why a ban duration would be refused, or null when GoTrue would take it. */
export function banDurationProblem(value: string): BanDurationProblem | null {
  const read = readBanDuration(value);
  return typeof read === 'string' ? read : null;
}

/**
 * GoTrue's ban_duration: a Go duration ("24h", "90m", "1h30m", "2.5h") in milliseconds, or null for
 * "none" (lifts a ban). Anything else is 400 `validation_failed`, and so is a ban longer than
 * MAX_BAN_HOURS.
 */
export function parseBanDuration(value: string): number | null {
  const read = readBanDuration(value);
  if (read === 'format') throw authErrors.validation('invalid format for ban duration');
  if (read === 'too_long') throw authErrors.validation(BAN_TOO_LONG_MESSAGE);
  return read;
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
    hash = await hashPassword(input.password);
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
