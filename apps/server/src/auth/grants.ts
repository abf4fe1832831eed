// POST /token (password, refresh_token, pkce; web3 and id_token answer "disabled") and POST /logout.
import { createHash } from 'node:crypto';
import { userBanned, type AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import { countPasswordAttempt } from './password-limits.js';
import { verifyPassword } from './passwords.js';
import { parseBody, passwordGrantBody, pkceGrantBody, refreshGrantBody } from './schemas.js';
import { endSessions, refreshTokenReused, rotateRefreshToken, type LogoutScope } from './sessions.js';
import { OAuthError, type RequestContext, type TokenResponse } from './types.js';
import { findUserByEmail, findUserById } from './users.js';

const FLOW_STATE_LIFETIME_MS = 300_000;

export function createGrantsApi(core: AuthCore) {
  const { db } = core;

  const api = {
    /** POST /token?grant_type=password */
    async passwordGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(passwordGrantBody, body);
      await core.limit('token', ctx.ip);
      if (input.email && input.phone)
        throw authErrors.validation('Only an email address or phone number should be provided');
      if (input.phone) throw authErrors.invalidCredentials();
      if (!input.email) throw authErrors.validation('An email address or phone number is required');
      if (!input.password) throw authErrors.validation('A password is required');
      const user = await findUserByEmail(db, input.email.trim());
      // Counted before the check, given back when right (password-limits.ts).
      const attempt = await countPasswordAttempt(
        core,
        input.email.trim().toLowerCase(),
        user?.id ?? null,
        ctx.ip,
      );
      if (!user?.encrypted_password) {
        // Same work as a real check, so timing does not tell whether the address exists.
        await verifyPassword(await core.dummyHash(), input.password);
        throw authErrors.invalidCredentials();
      }
      if (!(await verifyPassword(user.encrypted_password, input.password)))
        throw authErrors.invalidCredentials();
      await attempt.succeeded();
      if (core.isBanned(user)) throw userBanned(400);
      if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      return core.signIn(user, 'password', ctx);
    },

    /** POST /token?grant_type=refresh_token */
    async refreshGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(refreshGrantBody, body);
      await core.limit('token', ctx.ip);
      if (!input.refresh_token) throw new OAuthError('invalid_request', 'refresh_token required');
      const presented = input.refresh_token;
      const rotation = await db.transaction((tx) =>
        rotateRefreshToken(tx, presented, core.reuseMs, new Date(core.now())),
      );
      if ('revokeSession' in rotation) {
        await db.query('delete from auth_sessions where id = $1', [rotation.revokeSession]);
        throw refreshTokenReused();
      }
      const { session, refreshToken } = rotation;
      const user = await findUserById(db, session.user_id);
      if (!user) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: Session Not Found');
      if (core.isBanned(user)) throw userBanned(400);
      return core.tokenResponse(user, session, refreshToken);
    },

    /** POST /token?grant_type=pkce: exchanges a link's auth code and the client's verifier for a session. */
    async pkceGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(pkceGrantBody, body);
      await core.limit('token', ctx.ip);
      if (!input.auth_code || !input.code_verifier)
        throw authErrors.validation('invalid request: both auth code and code verifier should be non-empty');
      const { rows } = await db.query<{
        user_id: string;
        code_challenge: string;
        code_challenge_method: 's256' | 'plain';
        authentication_method: string;
        created_at: Date;
      }>('delete from auth_flow_state where auth_code = $1 returning *', [input.auth_code]);
      const flow = rows[0];
      if (!flow)
        throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
      if (core.now() - new Date(flow.created_at).getTime() > FLOW_STATE_LIFETIME_MS)
        throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
      const expected =
        flow.code_challenge_method === 's256'
          ? createHash('sha256').update(input.code_verifier).digest('base64url')
          : input.code_verifier;
      if (expected !== flow.code_challenge)
        throw new AuthError(
          400,
          'bad_code_verifier',
          'code challenge does not match previously saved code verifier',
        );
      const user = await findUserById(db, flow.user_id);
      if (!user) throw authErrors.userNotFound();
      if (core.isBanned(user)) throw userBanned(400);
      return core.signIn(user, flow.authentication_method === 'recovery' ? 'recovery' : 'otp', ctx);
    },

    /** POST /token: dispatches on grant_type; grants this server does not offer get GoTrue's codes. */
    grant(grantType: unknown, body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      if (grantType === 'password') return api.passwordGrant(body, ctx);
      if (grantType === 'refresh_token') return api.refreshGrant(body, ctx);
      if (grantType === 'pkce') return api.pkceGrant(body, ctx);
      if (grantType === 'web3')
        throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
      if (grantType === 'id_token')
        throw new AuthError(400, 'provider_disabled', 'Sign in with an ID token is not enabled');
      throw new AuthError(400, 'invalid_credentials', 'unsupported grant_type');
    },

    /** POST /logout?scope= */
    async logout(token: string | null, scope: string | undefined) {
      const s = (scope || 'global') as LogoutScope;
      if (!['global', 'local', 'others'].includes(s))
        throw authErrors.validation(`Unsupported logout scope "${scope}"`);
      const caller = await core.authenticate(token);
      await endSessions(db, caller.user.id, caller.session.id, s);
    },
  };
  return api;
}
