// Passkeys, as auth-js's `passkey` namespace and admin API call them: registration and
// sign-in ceremonies (options, then verify), list, rename, delete; the admin's list and delete.
import { generateAuthenticationOptions, generateRegistrationOptions } from '@simplewebauthn/server';
import { isoUint8Array } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import type { AuthCore } from './core.js';
import { userBanned } from './core.js';
import { AuthError } from './errors.js';
import { parseBody } from './schemas.js';
import { isUuid } from './tokens.js';
import type { Caller, RequestContext, TokenResponse } from './types.js';
import { findUserById, hasVerifiedFactor } from './users.js';
import { saveChallenge, takeChallenge } from './webauthn-challenges.js';
import {
  authenticationJson,
  checkAssertion,
  checkRegistration,
  findCredential,
  insertCredential,
  registrationJson,
  relyingParty,
  transportsOf,
  verificationFailed,
  WEBAUTHN_TIMEOUT_MS,
  type CredentialRow,
} from './webauthn.js';

/** Passkeys one account may hold: enough for every device a person owns, not a storage bin. */
export const MAX_PASSKEYS = 25;

const friendlyName = z.string().trim().min(1).max(120);
const registrationVerifyBody = z.object({
  challenge_id: z.string().max(64),
  credential: registrationJson,
  friendly_name: friendlyName.optional(),
});
const authenticationVerifyBody = z.object({
  challenge_id: z.string().max(64),
  credential: authenticationJson,
});
const updateBody = z.object({ friendly_name: friendlyName });

const passkeyNotFound = () => new AuthError(404, 'passkey_not_found', 'Passkey not found');

export function passkeyJson(row: CredentialRow) {
  return {
    id: row.id,
    friendly_name: row.friendly_name ?? undefined,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : undefined,
  };
}

export async function listPasskeys(core: AuthCore, userId: string): Promise<CredentialRow[]> {
  const { rows } = await core.db.query<CredentialRow>(
    'select * from auth_webauthn_credentials where user_id = $1 and factor_id is null order by created_at',
    [userId],
  );
  return rows;
}

export function createPasskeysApi(core: AuthCore) {
  const { db } = core;
  const rp = () => relyingParty(core.siteUrl(), core.opts.siteTitle, core.opts.webauthnOrigins);
  const challengeLimits = {
    maxPending: core.opts.maxPendingChallenges,
    lockTimeoutMs: core.opts.challengeLockTimeoutMs,
  };

  /** A user with a verified factor changes their passkeys only from an aal2 session. */
  async function requireAalForChange(caller: Caller) {
    if (caller.session.aal !== 'aal2' && (await hasVerifiedFactor(db, caller.user.id)))
      throw new AuthError(403, 'insufficient_aal', 'AAL2 required to change passkeys');
  }

  async function ownPasskey(caller: Caller, id: string): Promise<CredentialRow> {
    if (!isUuid(id)) throw passkeyNotFound();
    const { rows } = await db.query<CredentialRow>(
      'select * from auth_webauthn_credentials where id = $1 and user_id = $2 and factor_id is null',
      [id, caller.user.id],
    );
    if (!rows[0]) throw passkeyNotFound();
    return rows[0];
  }

  return {
    /** POST /passkeys/registration/options (user Bearer). */
    async registrationOptions(caller: Caller, ctx: RequestContext) {
      await core.limit('passkeyOptions', ctx.ip);
      await requireAalForChange(caller);
      const existing = await db.query<CredentialRow>(
        'select * from auth_webauthn_credentials where user_id = $1',
        [caller.user.id],
      );
      if (existing.rows.filter((r) => r.factor_id === null).length >= MAX_PASSKEYS)
        throw new AuthError(422, 'too_many_passkeys', `An account holds at most ${MAX_PASSKEYS} passkeys`);
      const party = rp();
      const options = await generateRegistrationOptions({
        rpName: party.name,
        rpID: party.id,
        userName: caller.user.email,
        userID: isoUint8Array.fromUTF8String(caller.user.id),
        timeout: WEBAUTHN_TIMEOUT_MS,
        attestationType: 'none',
        excludeCredentials: transportsOf(existing.rows),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      const saved = await saveChallenge(
        db,
        'registration',
        options.challenge,
        { userId: caller.user.id, sessionId: caller.session.id },
        core.now(),
        challengeLimits,
      );
      return { challenge_id: saved.id, options, expires_at: saved.expires_at };
    },

    /** POST /passkeys/registration/verify (user Bearer): the attestation becomes a passkey. */
    async registrationVerify(caller: Caller, body: unknown, ctx: RequestContext) {
      await core.limit('passkey', ctx.ip);
      const input = parseBody(registrationVerifyBody, body);
      await requireAalForChange(caller);
      const challenge = await takeChallenge(
        db,
        input.challenge_id,
        'registration',
        { userId: caller.user.id, sessionId: caller.session.id },
        core.now(),
      );
      const credential = await checkRegistration(rp(), input.credential, challenge);
      const row = await insertCredential(db, caller.user.id, null, credential, input.friendly_name ?? null);
      return passkeyJson(row);
    },

    /** POST /passkeys/authentication/options (apikey only): a challenge for any discoverable passkey. */
    async authenticationOptions(ctx: RequestContext) {
      // Its own bucket (rate-limit.ts): autofill asking for challenges never locks out a sign-in.
      await core.limit('passkeyOptions', ctx.ip);
      const options = await generateAuthenticationOptions({
        rpID: rp().id,
        timeout: WEBAUTHN_TIMEOUT_MS,
        userVerification: 'preferred',
      });
      const saved = await saveChallenge(
        db,
        'authentication',
        options.challenge,
        {},
        core.now(),
        challengeLimits,
      );
      return { challenge_id: saved.id, options, expires_at: saved.expires_at };
    },

    /** POST /passkeys/authentication/verify (apikey only): a valid assertion signs its owner in. */
    async authenticationVerify(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      await core.limit('passkey', ctx.ip);
      const input = parseBody(authenticationVerifyBody, body);
      const challenge = await takeChallenge(db, input.challenge_id, 'authentication', {}, core.now());
      const stored = await findCredential(db, input.credential.id);
      // A factor's credential is a second factor only: it never signs anyone in alone.
      if (!stored || stored.factor_id !== null) throw verificationFailed('this passkey is not registered');
      const handle = input.credential.response.userHandle;
      if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== stored.user_id)
        throw verificationFailed('the passkey belongs to another account');
      const user = await findUserById(db, stored.user_id);
      if (!user) throw verificationFailed('this passkey is not registered');
      await checkAssertion(db, rp(), input.credential, challenge, stored, core.now());
      if (core.isBanned(user)) throw userBanned(400);
      return core.signIn(user, 'passkey', ctx);
    },

    /** GET /passkeys */
    async list(caller: Caller) {
      return (await listPasskeys(core, caller.user.id)).map(passkeyJson);
    },

    /** PATCH /passkeys/{id}: a new name. */
    async update(caller: Caller, id: string, body: unknown) {
      const input = parseBody(updateBody, body);
      const passkey = await ownPasskey(caller, id);
      await requireAalForChange(caller);
      const { rows } = await db.query<CredentialRow>(
        `update auth_webauthn_credentials set friendly_name = $2, updated_at = now() where id = $1 returning *`,
        [passkey.id, input.friendly_name],
      );
      return passkeyJson(rows[0] as CredentialRow);
    },

    /** DELETE /passkeys/{id} */
    async remove(caller: Caller, id: string) {
      const passkey = await ownPasskey(caller, id);
      await requireAalForChange(caller);
      await db.query('delete from auth_webauthn_credentials where id = $1', [passkey.id]);
      return {};
    },
  };
}

/** The admin's view: GET and DELETE /admin/users/{id}/passkeys[/{passkeyId}]. */
export function createAdminPasskeysApi(core: AuthCore) {
  async function user(id: string) {
    const found = isUuid(id) ? await findUserById(core.db, id) : null;
    if (!found) throw new AuthError(404, 'user_not_found', 'User not found');
    return found;
  }
  return {
    async list(userId: string) {
      return (await listPasskeys(core, (await user(userId)).id)).map(passkeyJson);
    },
    async remove(userId: string, passkeyId: string) {
      const owner = await user(userId);
      const { rows } = await core.db.query<CredentialRow>(
        `delete from auth_webauthn_credentials where id = $1 and user_id = $2 and factor_id is null returning *`,
        [isUuid(passkeyId) ? passkeyId : '00000000-0000-0000-0000-000000000000', owner.id],
      );
      if (!rows[0]) throw passkeyNotFound();
      return passkeyJson(rows[0]);
    },
  };
}
