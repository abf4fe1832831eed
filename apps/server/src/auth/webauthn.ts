// What passkeys and WebAuthn factors share: the relying party (from PUBLIC_URL only), the
// credential checks, done by @simplewebauthn/server, and the credentials' rows. Never trusts
// rpId/origin values a client sends. The challenge store is webauthn-challenges.ts.
import type { Queryable } from '@engage/db';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import { AuthError } from './errors.js';

/** Lifetime of a ceremony's challenge (GoTrue's GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION default). */
export const WEBAUTHN_CHALLENGE_MS = 300_000;
export const WEBAUTHN_TIMEOUT_MS = 60_000;

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
