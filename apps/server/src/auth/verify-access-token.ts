import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { roleOf, type AuthenticatedUser, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { isAuthError } from './errors.js';
import type { AuthService } from './service.js';
import { appMetadataOf } from './users.js';

/**
 * An anonymous user (GoTrue's is_anonymous) is never an admin or an operator, whatever its
 * app_metadata says: a role needs an account someone can prove they own.
 */
const toAuthenticatedUser = (
  id: string,
  email: string,
  appMetadata: Record<string, unknown>,
  mfa: { aal: 'aal1' | 'aal2'; hasVerifiedFactor: boolean },
  isAnonymous: boolean,
): AuthenticatedUser => ({
  id,
  email,
  role: isAnonymous ? 'user' : roleOf(appMetadata),
  appMetadata,
  ...(isAnonymous ? { isAnonymous } : {}),
  ...mfa,
});

const aalOf = (claim: unknown): 'aal1' | 'aal2' => (claim === 'aal2' ? 'aal2' : 'aal1');

/** GoTrue's user JSON lists every factor, unverified ones too. */
const anyVerified = (factors: unknown): boolean =>
  Array.isArray(factors) &&
  factors.some(
    (f) => typeof f === 'object' && f !== null && (f as { status?: unknown }).status === 'verified',
  );

export type VerifyAccessTokenOptions =
  | { mode: 'embedded'; service: Pick<AuthService, 'authenticate' | 'hasVerifiedFactor'> }
  | { mode: 'hosted'; supabaseUrl: string; anonKey: string; fetch?: typeof fetch };

/**
 * The access-token check every protected server route uses (`requireUser(verify)`).
 * - embedded: this server's own ES256 signature and expiry, and the session row must still exist
 *   (so a sign-out ends access at once); the role is read from the current user row.
 * - hosted Supabase: the project's JWKS (`/auth/v1/.well-known/jwks.json`, cached by jose); a token
 *   signed with the legacy shared secret (HS256, no `kid`) is checked by asking `GET /auth/v1/user`.
 * Returns null for any token that does not check out; throws only when the check itself fails
 * (the database is down), so the caller answers 500 rather than a misleading 401.
 *
 * The assurance level (`aal`, `hasVerifiedFactor`) is decided now, not when the token was issued:
 * - embedded: aal2 only when both the token and its session row say so (removing a factor
 *   downgrades the session); the user's factors are read from the database on every request.
 * - hosted: the token's `aal` claim; an aal1 token's user is read from `GET /auth/v1/user` (with
 *   that token), whose `factors` tell whether a verified one exists. An aal2 token had a verified
 *   factor when issued. A user endpoint that cannot answer makes the token count as invalid.
 */
export function createVerifyAccessToken(options: VerifyAccessTokenOptions): VerifyAccessToken {
  if (options.mode === 'embedded') {
    const { service } = options;
    return async (token) => {
      try {
        const { claims, user, session } = await service.authenticate(token);
        const aal = claims.aal === 'aal2' && session.aal === 'aal2' ? 'aal2' : 'aal1';
        return toAuthenticatedUser(
          user.id,
          user.email,
          appMetadataOf(user),
          { aal, hasVerifiedFactor: await service.hasVerifiedFactor(user.id) },
          user.is_anonymous,
        );
      } catch (error) {
        // A bad token is "not signed in"; a database failure is a server error, not a 401.
        if (isAuthError(error)) return null;
        throw error;
      }
    };
  }
  const base = options.supabaseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const jwks = createRemoteJWKSet(new URL(`${base}/auth/v1/.well-known/jwks.json`));
  /** GoTrue's own check of the token; its answer is the user now, factors included. */
  const fetchUser = async (token: string) => {
    const res = await fetchImpl(`${base}/auth/v1/user`, {
      headers: { apikey: options.anonKey, Authorization: `Bearer ${token}` },
    });
    if (!res.ok) return null;
    const user = (await res.json()) as {
      id?: unknown;
      email?: unknown;
      app_metadata?: unknown;
      factors?: unknown;
      is_anonymous?: unknown;
    };
    return typeof user.id === 'string' ? user : null;
  };
  const viaUserEndpoint = async (token: string) => {
    const user = await fetchUser(token);
    if (!user) return null;
    const meta = (user.app_metadata ?? {}) as Record<string, unknown>;
    // GoTrue has just accepted the token, so its claims can be read as they are.
    return toAuthenticatedUser(
      user.id as string,
      typeof user.email === 'string' ? user.email : '',
      meta,
      { aal: aalOf(decodeJwt(token).aal), hasVerifiedFactor: anyVerified(user.factors) },
      user.is_anonymous === true,
    );
  };
  return async (token) => {
    try {
      const header = decodeProtectedHeader(token);
      if (!header.kid || header.alg?.startsWith('HS')) return await viaUserEndpoint(token);
      const { payload } = await jwtVerify(token, jwks, {
        audience: 'authenticated',
        algorithms: ['ES256', 'RS256'],
      });
      if (typeof payload.sub !== 'string') return null;
      const meta = (payload.app_metadata ?? {}) as Record<string, unknown>;
      const aal = aalOf(payload.aal);
      let hasVerifiedFactor = aal === 'aal2';
      if (aal === 'aal1') {
        // The token cannot say whether a factor was enrolled since: GoTrue's user record can.
        const user = await fetchUser(token);
        if (!user || user.id !== payload.sub) return null;
        hasVerifiedFactor = anyVerified(user.factors);
      }
      return toAuthenticatedUser(
        payload.sub,
        typeof payload.email === 'string' ? payload.email : '',
        meta,
        { aal, hasVerifiedFactor },
        payload.is_anonymous === true,
      );
    } catch {
      return null;
    }
  };
}
