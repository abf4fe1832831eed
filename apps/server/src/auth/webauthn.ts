// What passkeys and WebAuthn factors share: the relying party (from PUBLIC_URL only),
// the challenge store (single-use, expiring, bound to who asked) and the credential checks, done
// by @simplewebauthn/server. Never trusts rpId/origin values a client sends.
import { advisoryXactLock, isLockTimeout } from '@engage/db';
import { keyedQueue, type KeyedQueue } from '@engage/db';
import type { Db, Queryable } from '@engage/db';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import { AuthError, authErrors } from './errors.js';
import { isUuid } from './tokens.js';

/** Lifetime of a ceremony's challenge (GoTrue's GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION default). */
export const WEBAUTHN_CHALLENGE_MS = 300_000;
export const WEBAUTHN_TIMEOUT_MS = 60_000;
/**
 * Challenges pending at once, all kinds and callers together: a backstop on the table's size when a
 * flood comes from more addresses than the per-address limits can hold (about 200 bytes a row, so
 * some 20 MB). Past it new ceremonies get 429 until the oldest expire (5 minutes at most); ceremonies
 * already under way finish, and password sign-in is not affected.
 */
export const MAX_PENDING_CHALLENGES = 100_000;

export type ChallengeKind = 'registration' | 'authentication' | 'mfa_create' | 'mfa_request';

export interface RelyingParty {
  id: string;
  name: string;
  /** The site's own origin (PUBLIC_URL's). */
  origin: string;
  /** Every origin a ceremony may come from: the site's first, then AUTH_WEBAUTHN_RP_ORIGINS. */
  origins: string[];
}

/**
 * The relying party of this site: its host name and origin from PUBLIC_URL, never from a request,
 * and the extra origins configuration allows (the same site on another host name under it).
 */
export function relyingParty(
  publicOrigin: string,
  name: string,
  extraOrigins: readonly string[] = [],
): RelyingParty {
  const url = new URL(publicOrigin);
  const origins = [url.origin, ...extraOrigins.filter((o) => o !== url.origin)];
  return { id: url.hostname, name, origin: url.origin, origins };
}

export interface CredentialRow {
  id: string;
  user_id: string;
  factor_id: string | null;
  credential_id: string;
  public_key: string;
  sign_count: string | number;
  transports: AuthenticatorTransportFuture[];
  friendly_name: string | null;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
}

/** An MFA factor's WebAuthn challenge that is unknown, spent or too old (one answer for all three). */
export const challengeExpired = () =>
  new AuthError(422, 'webauthn_challenge_expired', 'WebAuthn challenge has expired or was not found');
/** GoTrue's answers for a passkey ceremony's challenge: unknown or spent, and expired. */
export const passkeyChallengeNotFound = () =>
  new AuthError(400, 'webauthn_challenge_not_found', 'Challenge not found or already used');
export const passkeyChallengeExpired = () =>
  new AuthError(400, 'webauthn_challenge_expired', 'Challenge has expired');
export const verificationFailed = (why: string) =>
  new AuthError(422, 'webauthn_verification_failed', `WebAuthn verification failed: ${why}`);

// The browser's JSON, size-capped: ids and keys are base64url, client data and authenticator data
// a few hundred bytes, attestations a few KiB.
const b64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);
const extensions = z.record(z.string(), z.unknown()).optional();
export const registrationJson = z.object({
  id: b64(1024),
  rawId: b64(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64(8192),
    attestationObject: b64(65_536),
    transports: z.array(z.string().max(32)).max(8).optional(),
    authenticatorData: b64(8192).optional(),
    publicKey: b64(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional().nullable(),
  clientExtensionResults: extensions,
});
export const authenticationJson = z.object({
  id: b64(1024),
  rawId: b64(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64(8192),
    authenticatorData: b64(8192),
    signature: b64(2048),
    userHandle: b64(1024).optional().nullable(),
  }),
  authenticatorAttachment: z.string().max(32).optional().nullable(),
  clientExtensionResults: extensions,
});

/** The advisory lock that makes the cap's count-and-insert one step on PostgreSQL (hashtext key). */
const CHALLENGE_CAP_LOCK = 'engage:webauthn-challenges';
/** Longest a save waits for its turn (in this process, then for the lock) before a 429. */
export const CHALLENGE_LOCK_TIMEOUT_MS = 2_000;

/** The in-process turns of each database (one per instance): at most one connection waits on the lock. */
const queues = new WeakMap<Db, KeyedQueue>();
const queueOf = (db: Db) => {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = keyedQueue()));
  return queue;
};

const tooManyCeremonies = () =>
  new AuthError(
    429,
    'over_request_rate_limit',
    'Too many passkey ceremonies are under way: try again in a few minutes, or use your password.',
  );
const busy = () =>
  new AuthError(429, 'over_request_rate_limit', 'Too many passkey requests at once: try again in a moment.');

export interface ChallengeLimits {
  /** Challenges pending at once (default MAX_PENDING_CHALLENGES). */
  maxPending?: number;
  /** Longest wait for the cap's lock, ms (default CHALLENGE_LOCK_TIMEOUT_MS); tests set a short one. */
  lockTimeoutMs?: number;
}

export async function saveChallenge(
  db: Db,
  kind: ChallengeKind,
  challenge: string,
  bound: { userId?: string; sessionId?: string; factorId?: string },
  now: number,
  limits: ChallengeLimits = {},
): Promise<{ id: string; expires_at: number }> {
  const maxPending = limits.maxPending ?? MAX_PENDING_CHALLENGES;
  const lockTimeoutMs = limits.lockTimeoutMs ?? CHALLENGE_LOCK_TIMEOUT_MS;
  const queuedAt = Date.now();
  // One save at a time in this process first: a flood queues here, holding no pool connection, so
  // sign-in and everything else keep theirs. The whole wait (queue, then lock) is bounded: a save
  // that waited too long is refused with 429 instead of holding its caller or a connection.
  const rows = await queueOf(db)(CHALLENGE_CAP_LOCK, async () => {
    const left = lockTimeoutMs - (Date.now() - queuedAt);
    if (left <= 0) throw busy();
    try {
      return await db.transaction(async (tx) => {
        // The count and the insert as one step: under PostgreSQL's READ COMMITTED, concurrent
        // inserts each counted the rows committed before them and went past the cap together. One
        // saver at a time across instances (the lock goes with the transaction). PGlite is one
        // session that runs a transaction alone, so there the transaction is the whole lock.
        if (db.kind === 'postgres') await advisoryXactLock(tx, CHALLENGE_CAP_LOCK, left);
        // Abandoned challenges go with each new one once twice their life has passed: until then
        // a late verification is told its challenge expired, not that it never existed.
        await tx.query('delete from auth_webauthn_challenges where created_at < $1', [
          new Date(now - 2 * WEBAUTHN_CHALLENGE_MS),
        ]);
        // Counts the live ones, at most the cap's worth of rows: enough to know whether it is reached.
        const inserted = await tx.query<{ id: string }>(
          `insert into auth_webauthn_challenges (kind, challenge, user_id, session_id, factor_id, created_at)
           select $1, $2, $3, $4, $5, $6
           where (select count(*) from (
             select 1 from auth_webauthn_challenges where created_at >= $8 limit $7
           ) capped) < $7
           returning id`,
          [
            kind,
            challenge,
            bound.userId ?? null,
            bound.sessionId ?? null,
            bound.factorId ?? null,
            new Date(now),
            maxPending,
            new Date(now - WEBAUTHN_CHALLENGE_MS),
          ],
        );
        return inserted.rows;
      });
    } catch (error) {
      if (isLockTimeout(error)) throw busy();
      throw error;
    }
  });
  if (!rows[0]) throw tooManyCeremonies();
  return {
    id: rows[0].id,
    expires_at: Math.floor((now + WEBAUTHN_CHALLENGE_MS) / 1000),
  };
}

/**
 * Takes a challenge: deleted in the same statement that reads it, so it is used once even by two
 * concurrent verifications. It must be of `kind`, bound to the same user/session/factor, and young.
 * A passkey ceremony answers as GoTrue does (400: a malformed id, not found or spent, expired); an
 * MFA factor's keeps the one 422 of the MFA API.
 */
export async function takeChallenge(
  db: Queryable,
  id: unknown,
  kind: ChallengeKind,
  bound: { userId?: string; sessionId?: string; factorId?: string },
  now: number,
): Promise<string> {
  const mfa = kind === 'mfa_create' || kind === 'mfa_request';
  if (typeof id !== 'string' || !isUuid(id))
    throw mfa ? challengeExpired() : authErrors.validation('challenge_id must be a valid UUID');
  const { rows } = await db.query<{ challenge: string; created_at: Date }>(
    `delete from auth_webauthn_challenges
      where id = $1 and kind = $2 and user_id is not distinct from $3
        and session_id is not distinct from $4 and factor_id is not distinct from $5
      returning challenge, created_at`,
    [id, kind, bound.userId ?? null, bound.sessionId ?? null, bound.factorId ?? null],
  );
  const row = rows[0];
  if (!row) throw mfa ? challengeExpired() : passkeyChallengeNotFound();
  if (now - new Date(row.created_at).getTime() > WEBAUTHN_CHALLENGE_MS)
    throw mfa ? challengeExpired() : passkeyChallengeExpired();
  return row.challenge;
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  aaguid: string;
  backedUp: boolean;
}

/** Checks an attestation (registration) against the challenge and this relying party. */
export async function checkRegistration(
  rp: RelyingParty,
  response: z.infer<typeof registrationJson>,
  expectedChallenge: string,
): Promise<NewCredential> {
  let result;
  try {
    result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw verificationFailed((error as Error).message);
  }
  if (!result.verified) throw verificationFailed('the attestation did not verify');
  const info = result.registrationInfo;
  return {
    credentialId: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: info.credential.transports ?? response.response.transports ?? [],
    aaguid: info.aaguid,
    backedUp: info.credentialBackedUp,
  };
}

/**
 * Checks an assertion against the challenge, this relying party and the stored credential,
 * including the sign counter, then stores the new counter only if nobody else moved it meanwhile
 * (compare-and-set): a cloned authenticator or a replay racing the original loses.
 */
export async function checkAssertion(
  db: Queryable,
  rp: RelyingParty,
  response: z.infer<typeof authenticationJson>,
  expectedChallenge: string,
  credential: CredentialRow,
  now: number,
): Promise<void> {
  const counter = Number(credential.sign_count);
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: credential.credential_id,
        publicKey: isoBase64URL.toBuffer(credential.public_key),
        counter,
        transports: credential.transports,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    throw verificationFailed((error as Error).message);
  }
  if (!result.verified) throw verificationFailed('the signature did not verify');
  const moved = await db.query(
    `update auth_webauthn_credentials set sign_count = $2, last_used_at = $3, updated_at = $3
      where id = $1 and sign_count = $4`,
    [credential.id, result.authenticationInfo.newCounter, new Date(now), counter],
  );
  if (moved.rowCount !== 1) throw verificationFailed('the sign counter moved meanwhile');
}

export async function insertCredential(
  db: Queryable,
  userId: string,
  factorId: string | null,
  c: NewCredential,
  friendlyName: string | null,
): Promise<CredentialRow> {
  const { rows } = await db.query<CredentialRow>(
    `insert into auth_webauthn_credentials
       (user_id, factor_id, credential_id, public_key, sign_count, transports, aaguid, backed_up, friendly_name)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)
     on conflict (credential_id) do nothing returning *`,
    [
      userId,
      factorId,
      c.credentialId,
      c.publicKey,
      c.counter,
      JSON.stringify(c.transports),
      c.aaguid,
      c.backedUp,
      friendlyName,
    ],
  );
  if (!rows[0])
    throw new AuthError(422, 'webauthn_credential_exists', 'This authenticator is already registered');
  return rows[0];
}

export async function findCredential(db: Queryable, credentialId: string): Promise<CredentialRow | null> {
  const { rows } = await db.query<CredentialRow>(
    'select * from auth_webauthn_credentials where credential_id = $1',
    [credentialId],
  );
  return rows[0] ?? null;
}

export const transportsOf = (rows: readonly CredentialRow[]) =>
  rows.map((r) => ({ id: r.credential_id, transports: r.transports }));
