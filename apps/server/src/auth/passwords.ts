import { hash, verify } from '@node-rs/argon2';
import { AuthError, authErrors } from './errors.js';

/** GoTrue's limits: at least 6 characters, at most 72 bytes (bcrypt's limit, kept for portability). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_BYTES = 72;

// C0 controls and DEL: sign-in refuses a NUL in any JSON string, and no keyboard types the others,
// so a password holding one could be set but never used.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface PasswordProblem {
  /** `length` (too short: 422 weak_password) or `format` (400 validation_failed). */
  reason: 'length' | 'format';
  message: string;
}

/** The one password rule of the auth service and both admin APIs; `reason` picks GoTrue's error. */
export function checkPassword(password: string): PasswordProblem | null {
  if (CONTROL.test(password))
    return { reason: 'format', message: 'Password cannot contain control characters (such as NUL).' };
  if (password.length < PASSWORD_MIN_LENGTH)
    return { reason: 'length', message: `Password should be at least ${PASSWORD_MIN_LENGTH} characters.` };
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES)
    return { reason: 'format', message: `Password cannot be longer than ${PASSWORD_MAX_BYTES} bytes.` };
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

/** The shared rule as GoTrue answers it: too short is 422 `weak_password`, the rest 400. */
export function weakPassword(password: string): AuthError | null {
  const problem = checkPassword(password);
  if (!problem) return null;
  if (problem.reason === 'length')
    return new AuthError(422, 'weak_password', problem.message, { weak_password: { reasons: ['length'] } });
  return authErrors.validation(problem.message);
}
