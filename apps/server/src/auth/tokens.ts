import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { AuthError, authErrors } from './errors.js';
import type { AuthKeys } from './keys.js';

export const ACCESS_TOKEN_LIFETIME_S = 3600;
export const AUDIENCE = 'authenticated';

export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** The claims of an access token. */
export interface AccessClaims extends JWTPayload {
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: string;
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
  session_id: string;
  is_anonymous: boolean;
}

export interface AccessTokenInput {
  userId: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  sessionId: string;
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
  isAnonymous: boolean;
  /** `<public origin>/auth/v1`, as GoTrue's API_EXTERNAL_URL: always set. */
  issuer: string;
  nowSeconds: number;
}

export async function signAccessToken(keys: AuthKeys, input: AccessTokenInput): Promise<string> {
  return new SignJWT({
    email: input.email,
    phone: '',
    app_metadata: input.appMetadata,
    user_metadata: input.userMetadata,
    role: 'authenticated',
    aal: input.aal,
    amr: input.amr,
    session_id: input.sessionId,
    is_anonymous: input.isAnonymous,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: keys.kid })
    .setSubject(input.userId)
    .setAudience(AUDIENCE)
    .setIssuer(input.issuer)
    .setIssuedAt(input.nowSeconds)
    .setExpirationTime(input.nowSeconds + ACCESS_TOKEN_LIFETIME_S)
    .sign(keys.privateKey);
}

/**
 * Verifies a JWT signed by this service (signature, expiry) and returns its payload.
 * Throws 403 `bad_jwt` for anything that does not check out.
 */
export async function verifyJwt(keys: AuthKeys, token: string, nowSeconds?: number): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: ['ES256'],
      currentDate: nowSeconds === undefined ? undefined : new Date(nowSeconds * 1000),
    });
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw authErrors.badJwt('token has invalid claims: token is expired');
    if (error instanceof AuthError) throw error;
    throw authErrors.badJwt();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Checks that a verified payload is a user access token and narrows it. */
export function asAccessClaims(payload: JWTPayload): AccessClaims {
  if (typeof payload.sub !== 'string' || !payload.sub) throw authErrors.badJwt('missing sub claim');
  if (!isUuid(payload.sub)) throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  if (!isUuid(payload.session_id)) throw authErrors.badJwt('invalid claim: session_id claim must be a UUID');
  if (payload.aud !== AUDIENCE)
    throw new AuthError(400, 'validation_failed', 'Token audience does not match this server');
  return payload as AccessClaims;
}

/** An opaque refresh token: 16 random bytes as 22 url-safe characters. */
export const newRefreshToken = (): string => randomBytes(16).toString('base64url');
