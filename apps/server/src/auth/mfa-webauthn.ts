// WebAuthn as an MFA factor (factor_type 'webauthn'), as auth-js's `mfa` API calls it:
// the first challenge of an unverified factor is a registration ('create'), later ones an assertion
// ('request') for the factor's one credential. A verified assertion raises the session to aal2, as
// a TOTP code does (mfa-verify.ts), so the server's aal2 rules treat both alike.
import type { Db, Queryable } from '@engage/db';
import { generateAuthenticationOptions, generateRegistrationOptions } from '@simplewebauthn/server';
import { isoUint8Array } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import { assertMayVerify, raiseToAal2 } from './aal2.js';
import { AuthError } from './errors.js';
import { parseBody } from './schemas.js';
import type { SessionRow } from './sessions.js';
import { newRefreshToken } from './tokens.js';
import type { Caller } from './types.js';
import type { FactorRow } from './users.js';
import { saveChallenge, takeChallenge } from './webauthn-challenges.js';
import {
  authenticationJson,
  checkAssertion,
  challengeExpired,
  checkRegistration,
  insertCredential,
  registrationJson,
  transportsOf,
  verificationFailed,
  WEBAUTHN_TIMEOUT_MS,
  type CredentialRow,
  type RelyingParty,
} from './webauthn.js';

// rpId and rpOrigins are accepted (auth-js sends them) but never used: the relying party is
// PUBLIC_URL's. A client naming another one is refused rather than silently re-targeted.
const rpFields = {
  rpId: z.string().max(253).optional(),
  rpOrigins: z.array(z.string().max(2048)).max(8).optional(),
};
const verifyBody = z.object({
  challenge_id: z.string().max(64),
  webauthn: z.discriminatedUnion('type', [
    z.object({ type: z.literal('create'), credential_response: registrationJson, ...rpFields }),
    z.object({ type: z.literal('request'), credential_response: authenticationJson, ...rpFields }),
  ]),
});
const challengeBody = z.object({
  webauthn: z.object(rpFields).optional(),
});

export interface WebauthnFactorDeps {
  db: Db;
  rp: () => RelyingParty;
  now: () => number;
  /** WebAuthn challenges pending at once (default MAX_PENDING_CHALLENGES). */
  maxPendingChallenges?: number;
}

function checkRp(rp: RelyingParty, given: { rpId?: string; rpOrigins?: string[] } | undefined) {
  if (given?.rpId !== undefined && given.rpId !== rp.id)
    throw new AuthError(400, 'validation_failed', `rpId must be ${rp.id}`);
  if (given?.rpOrigins?.some((o) => !rp.origins.includes(o)))
    throw new AuthError(400, 'validation_failed', `rpOrigins must be among [${rp.origins.join(', ')}]`);
}

export function createWebauthnFactorApi({ db, rp, now, maxPendingChallenges }: WebauthnFactorDeps) {
  const bound = (caller: Caller, factor: FactorRow) => ({
    userId: caller.user.id,
    sessionId: caller.session.id,
    factorId: factor.id,
  });

  return {
    async challenge(caller: Caller, factor: FactorRow, body: unknown) {
      const input = parseBody(challengeBody, body);
      const party = rp();
      checkRp(party, input.webauthn);
      const creating = factor.status === 'unverified';
      await assertMayVerify(db, caller, factor);
      const credentials = await db.query<CredentialRow>(
        creating
          ? 'select * from auth_webauthn_credentials where user_id = $1'
          : 'select * from auth_webauthn_credentials where user_id = $1 and factor_id = $2',
        creating ? [caller.user.id] : [caller.user.id, factor.id],
      );
      if (!creating && credentials.rows.length === 0)
        throw verificationFailed('the factor has no credential');
      const publicKey = creating
        ? await generateRegistrationOptions({
            rpName: party.name,
            rpID: party.id,
            userName: caller.user.email,
            userID: isoUint8Array.fromUTF8String(caller.user.id),
            timeout: WEBAUTHN_TIMEOUT_MS,
            attestationType: 'none',
            excludeCredentials: transportsOf(credentials.rows),
            authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
          })
        : await generateAuthenticationOptions({
            rpID: party.id,
            timeout: WEBAUTHN_TIMEOUT_MS,
            allowCredentials: transportsOf(credentials.rows),
            userVerification: 'preferred',
          });
      const saved = await saveChallenge(
        db,
        creating ? 'mfa_create' : 'mfa_request',
        publicKey.challenge,
        bound(caller, factor),
        now(),
        { maxPending: maxPendingChallenges },
      );
      await db.query('update auth_factors set last_challenged_at = $2 where id = $1', [
        factor.id,
        new Date(now()),
      ]);
      return {
        id: saved.id,
        type: 'webauthn' as const,
        expires_at: saved.expires_at,
        webauthn: { type: creating ? 'create' : 'request', credential_options: { publicKey } },
      };
    },

    /** The verified ceremony's session, upgraded to aal2 with `refreshToken`. */
    async verify(
      caller: Caller,
      factor: FactorRow,
      body: unknown,
    ): Promise<{ session: SessionRow; refreshToken: string }> {
      const input = parseBody(verifyBody, body);
      const party = rp();
      checkRp(party, input.webauthn);
      const creating = factor.status === 'unverified';
      if ((input.webauthn.type === 'create') !== creating)
        throw new AuthError(
          400,
          'validation_failed',
          `webauthn.type must be ${creating ? 'create' : 'request'}`,
        );
      const challenge = await takeChallenge(
        db,
        input.challenge_id,
        creating ? 'mfa_create' : 'mfa_request',
        bound(caller, factor),
        now(),
      );
      const refreshToken = newRefreshToken();
      const session = await db.transaction(async (tx) => {
        // The factor's row, locked: two verifications of one factor run one after the other, and
        // a key is registered only while the factor is still unverified.
        const locked = await tx.query<{ status: string }>(
          'select status from auth_factors where id = $1 for update',
          [factor.id],
        );
        if (locked.rows[0]?.status !== factor.status) throw challengeExpired();
        await assertMayVerify(tx, caller, factor);
        if (input.webauthn.type === 'create') {
          const credential = await checkRegistration(party, input.webauthn.credential_response, challenge);
          await insertCredential(tx, caller.user.id, factor.id, credential, factor.friendly_name);
        } else {
          const { rows } = await tx.query<CredentialRow>(
            'select * from auth_webauthn_credentials where credential_id = $1 and factor_id = $2 for update',
            [input.webauthn.credential_response.id, factor.id],
          );
          if (!rows[0]) throw verificationFailed("this authenticator is not the factor's");
          await checkAssertion(tx, party, input.webauthn.credential_response, challenge, rows[0], now());
        }
        return upgrade(tx, caller, factor.id, refreshToken, now());
      });
      return { session, refreshToken };
    },
  };
}

/** The factor verified, the session raised to aal2 with a new refresh token; other aal1 sessions end. */
async function upgrade(
  tx: Queryable,
  caller: Caller,
  factorId: string,
  refreshToken: string,
  now: number,
): Promise<SessionRow> {
  await tx.query(`update auth_factors set status = 'verified', updated_at = now() where id = $1`, [factorId]);
  return raiseToAal2(tx, caller, { id: factorId, type: 'webauthn' }, refreshToken, now);
}
