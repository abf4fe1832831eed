import { hash, verify } from '@node-rs/argon2';

/** GoTrue's limits: at least 6 characters, at most 72 bytes (bcrypt's limit, kept for portability). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_BYTES = 72;

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES)
    return `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters.`;
  return null;
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
