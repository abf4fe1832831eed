import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { roleOf, type AuthenticatedUser, type VerifyAccessToken } from '../middleware/require-auth.js';
import { isAuthError } from './errors.js';
import type { AuthService } from './service.js';
import { appMetadataOf } from './users.js';

const toAuthenticatedUser = (
  id: string,
  email: string,
  appMetadata: Record<string, unknown>,
): AuthenticatedUser => ({
  id,
  email,
  role: roleOf(appMetadata),
  appMetadata,
});

export type VerifyAccessTokenOptions =
  | { mode: 'embedded'; service: Pick<AuthService, 'authenticate'> }
  | { mode: 'hosted'; supabaseUrl: string; anonKey: string; fetch?: typeof fetch };

/**
 * The access-token check every protected server route uses (`requireUser(verify)`).
 * - embedded: this server's own ES256 signature and expiry, and the session row must still exist
 *   (so a sign-out ends access at once); the role is read from the current user row.
 * - hosted Supabase: the project's JWKS (`/auth/v1/.well-known/jwks.json`, cached by jose); a token
 *   signed with the legacy shared secret (HS256, no `kid`) is checked by asking `GET /auth/v1/user`.
 * Returns null for any token that does not check out; throws only when the check itself fails
 * (the database is down), so the caller answers 500 rather than a misleading 401.
 */
export function createVerifyAccessToken(options: VerifyAccessTokenOptions): VerifyAccessToken {
  if (options.mode === 'embedded') {
    const { service } = options;
    return async (token) => {
      try {
        const { user } = await service.authenticate(token);
        return toAuthenticatedUser(user.id, user.email, appMetadataOf(user));
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
  const viaUserEndpoint = async (token: string) => {
    const res = await fetchImpl(`${base}/auth/v1/user`, {
      headers: { apikey: options.anonKey, Authorization: `Bearer ${token}` },
    });
    if (!res.ok) return null;
    const user = (await res.json()) as { id?: unknown; email?: unknown; app_metadata?: unknown };
    if (typeof user.id !== 'string') return null;
    const meta = (user.app_metadata ?? {}) as Record<string, unknown>;
    return toAuthenticatedUser(user.id, typeof user.email === 'string' ? user.email : '', meta);
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
      return toAuthenticatedUser(payload.sub, typeof payload.email === 'string' ? payload.email : '', meta);
    } catch {
      return null;
    }
  };
}
