// One-time email tokens: the six-digit code and its link token (GoTrue's token_hash: 56 lower-case
// hex digits). Only a SHA-256 of the link token is stored; each token is single use and one per user
// and slot, so a new mail of a kind voids the previous one.
//
// GoTrue's token_hash is SHA-224(address + code), which anyone who knows the address can compute for
// each of the 10^6 codes and present as a link, where no account is named to count the guess against.
// Here it is HMAC-SHA-224 under a key derived from the auth signing key (the same 56 hex digits,
// opaque to clients as in GoTrue): a link cannot be forged, so codes can only be guessed as
// {email, token}, which code-guesses.ts caps per account.
import { createHash, createHmac, randomInt, type KeyObject } from 'node:crypto';
import type { Queryable } from '@engage/db';
import { PKCE_PREFIX, type Pkce } from './redirects.js';

export type TokenSlot =
  'confirmation' | 'recovery' | 'email_change_current' | 'email_change_new' | 'reauthentication';

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The key of the link tokens: a secret only the server holds, derived from its signing key. */
export type TokenSecret = Buffer;

const secrets = new WeakMap<KeyObject, TokenSecret>();

/** Derives (once per key) the link-token key from the auth signing key's private part. */
export function tokenSecretOf(signingKey: KeyObject): TokenSecret {
  let secret = secrets.get(signingKey);
  if (!secret) {
    const { d } = signingKey.export({ format: 'jwk' });
    secret = createHmac('sha256', 'engage email link tokens v1').update(String(d)).digest();
    secrets.set(signingKey, secret);
  }
  return secret;
}

/** The token hash a code sent to `address` stands for (POST /verify {email, token}). */
export const codeTokenHash = (secret: TokenSecret, address: string, code: string) =>
  createHmac('sha224', secret)
    .update(address + code.trim())
    .digest('hex');

export interface IssuedToken {
  code: string;
  /** GoTrue's token_hash; in the PKCE flow carrying the `pkce_` prefix. */
  tokenHash: string;
  /** The token hash without prefix (generate_link's `hashed_token`). */
  hashedToken: string;
}

/** Makes a fresh token of a slot for a user (replacing the previous one of that slot). */
export async function issueToken(
  tx: Queryable,
  secret: TokenSecret,
  userId: string,
  address: string,
  slot: TokenSlot,
  pkce: Pkce | null,
  at: Date,
): Promise<IssuedToken> {
  const code = newCode();
  const hashedToken = codeTokenHash(secret, address, code);
  await tx.query('delete from auth_one_time_tokens where user_id = $1 and token_type = $2', [userId, slot]);
  await tx.query(
    `insert into auth_one_time_tokens (user_id, token_type, token_hash, code_challenge, code_challenge_method, created_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [userId, slot, sha256Hex(hashedToken), pkce?.challenge ?? null, pkce?.method ?? null, at],
  );
  return { code, hashedToken, tokenHash: pkce ? `${PKCE_PREFIX}${hashedToken}` : hashedToken };
}

export interface TakenToken {
  user_id: string;
  token_type: TokenSlot;
  created_at: Date;
  pkce: Pkce | null;
}

/**
 * Consumes (deletes) the token of one of `slots` matching `presented` (a token hash, `pkce_`
 * prefix allowed); null when there is none or it is older than `lifetimeMs`.
 */
export async function takeToken(
  tx: Queryable,
  presented: string,
  slots: readonly TokenSlot[],
  lifetimeMs: number,
  now: number,
): Promise<TakenToken | null> {
  const tokenHash = presented.startsWith(PKCE_PREFIX) ? presented.slice(PKCE_PREFIX.length) : presented;
  const { rows } = await tx.query<{
    user_id: string;
    token_type: TokenSlot;
    created_at: Date;
    code_challenge: string | null;
    code_challenge_method: 's256' | 'plain' | null;
  }>(
    `delete from auth_one_time_tokens where token_hash = $1 and token_type = any($2::text[])
     returning user_id, token_type, created_at, code_challenge, code_challenge_method`,
    [sha256Hex(tokenHash), [...slots]],
  );
  const row = rows[0];
  if (!row || now - new Date(row.created_at).getTime() > lifetimeMs) return null;
  const pkce =
    row.code_challenge && row.code_challenge_method
      ? { challenge: row.code_challenge, method: row.code_challenge_method }
      : null;
  return { user_id: row.user_id, token_type: row.token_type, created_at: row.created_at, pkce };
}

/** `<public origin>/auth/v1/verify?token=…&type=…&redirect_to=…`, as GoTrue's mail links. */
export function verifyUrl(siteUrl: string, tokenHash: string, type: string, redirectTo: string): string {
  // Concatenated, not resolved: a PUBLIC_URL with a path (https://host/base) keeps it.
  const url = new URL(`${siteUrl}/auth/v1/verify`);
  url.searchParams.set('token', tokenHash);
  url.searchParams.set('type', type);
  url.searchParams.set('redirect_to', redirectTo);
  return url.toString();
}
