import { PASSWORD_MIN_LENGTH } from '@engage/http-contract';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AuthError, authErrors } from './errors.js';

/** GoTrue's limits: at least 6 characters, at most 72 bytes (bcrypt's limit, kept for portability). */
export { PASSWORD_MIN_LENGTH };
export const PASSWORD_MAX_BYTES = 72;

// C0 controls and DEL: sign-in refuses a NUL in any JSON string, and no keyboard types the others,
// so a password holding one could be set but never used.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

// zxcvbn-ts's list of common passwords (about 49,000, from leaked password sets, most frequent
// first), compared case-insensitively: "password", "Password1", "qwerty123" and the like. Server
// side only; docs/decisions.md says why this list.
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** GoTrue's words for a password found in a breach list (its `pwned` reason). */
export const COMMON_PASSWORD_MESSAGE =
  'Password is known to be weak and easy to guess, please choose a different one.';

export interface PasswordProblem {
  /**
   * `length` (too short) and `pwned` (a common password) are GoTrue's 422 `weak_password` with
   * that reason; `format` is 400 `validation_failed`.
   */
  reason: 'length' | 'pwned' | 'format';
  message: string;
}

/** The one password rule of the auth service and both admin APIs; `reason` picks GoTrue's error. */
export function checkPassword(password: string): PasswordProblem | null {
  if (CONTROL.test(password))
    return { reason: 'format', message: 'Password cannot contain control characters (such as NUL).' };
  if (password.length < PASSWORD_MIN_LENGTH)
    return { reason: 'length', message: `Password should be at least ${PASSWORD_MIN_LENGTH} characters.` };
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES)
    return {
      reason: 'format',
      message: `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters (fewer with accented letters or emoji, which count as 2 to 4).`,
    };
  if (COMMON.has(password.toLowerCase())) return { reason: 'pwned', message: COMMON_PASSWORD_MESSAGE };
  return null;
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  return checkPassword(password)?.message ?? null;
}

// argon2id (algorithm 2) with OWASP's minimum memory cost; about 20 ms per hash on these machines.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A PHC-format argon2id hash, which GoTrue can import. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Constant-time check of a password against a stored hash; false for a malformed hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * The shared rule as GoTrue answers it (sign-up, PUT /user, admin create and update): too short or
 * too common is 422 `weak_password` with `weak_password.reasons`, the rest 400 `validation_failed`.
 */
export function weakPassword(password: string): AuthError | null {
  const problem = checkPassword(password);
  if (!problem) return null;
  if (problem.reason === 'format') return authErrors.validation(problem.message);
  return new AuthError(422, 'weak_password', problem.message, {
    weak_password: { reasons: [problem.reason] },
  });
}
