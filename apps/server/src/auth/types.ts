// Shapes shared by the auth modules: the service's options, a request's origin, the token response
// and an authenticated caller. Types only (plus OAuthError), so every module can import it.
import type { Db } from '@engage/db';
import type { LimitStore } from '@engage/rate-limit';
import type { PublicOrigin } from '../platform/public-origin.js';
import { AuthError } from './errors.js';
import type { AuthKeys } from './keys.js';
import type { Mailer } from './mail.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { SessionRow } from './sessions.js';
import type { AccessClaims } from './tokens.js';
import type { userJson, UserRow } from './users.js';

export interface AuthServiceOptions {
  db: Db;
  keys: AuthKeys;
  mailer: Mailer;
  siteTitle: string;
  /** AUTH_WEBAUTHN_RP_ORIGINS: origins besides PUBLIC_URL's that may use passkeys and security keys. */
  webauthnOrigins?: readonly string[];
  /** Addresses told about every signup. */
  adminEmails: string[];
  /** AUTH_REFRESH_REUSE_INTERVAL, seconds. */
  refreshReuseIntervalSeconds: number;
  rateLimits?: RateLimitOptions;
  /** WebAuthn challenges pending at once (webauthn.ts MAX_PENDING_CHALLENGES); tests set a small one. */
  maxPendingChallenges?: number;
  /** Longest wait for the pending challenges' lock, ms (webauthn.ts CHALLENGE_LOCK_TIMEOUT_MS). */
  challengeLockTimeoutMs?: number;
  /** Where the limits count (db/limit-store.ts: PostgreSQL with DATABASE_URL); memory by default. */
  limitStore?: LimitStore;
  /** Minimum seconds between two mails of one kind to one user (GoTrue: 60). */
  emailResendIntervalSeconds?: number;
  /** Lifetime of email links and codes, seconds (GoTrue: 86400). */
  emailLinkLifetimeSeconds?: number;
  /** AUTH_AUTOCONFIRM (GoTrue's MAILER_AUTOCONFIRM): sign-ups are confirmed at once. */
  autoconfirm?: boolean;
  /**
   * AUTH_SECURE_PASSWORD_CHANGE (GoTrue's UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION): a password
   * change from a session older than 24 hours needs the nonce of GET /reauthenticate.
   */
  securePasswordChange?: boolean;
  /**
   * AUTH_PASSWORD_CHANGE_NEEDS_CURRENT (GoTrue's UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD): PUT /user
   * sets a password only with the current one (`current_password`), except from a reset link's
   * session or for an account without a password.
   */
  passwordChangeNeedsCurrent?: boolean;
  /**
   * AUTH_ANONYMOUS: anonymous sign-ins on, with at most `maxUsers` anonymous users at once, each
   * deleted `retentionDays` after its creation unless it added an address. Absent: off (GoTrue's
   * 422 `anonymous_provider_disabled`).
   */
  anonymous?: AnonymousOptions;
  /**
   * The site's origin (platform/public-origin.ts): links in mail, redirects, the TOTP issuer and the
   * tokens' `iss` all come from it, never from the request's Host or X-Forwarded-* headers.
   */
  publicOrigin: PublicOrigin;
  /** The password hash (passwords.ts); replaceable so tests can see when it runs. */
  hashPassword?: (password: string) => Promise<string>;
  now?: () => number;
}

export interface AnonymousOptions {
  maxUsers: number;
  retentionDays: number;
}

/** Where a request came from. */
export interface RequestContext {
  ip: string;
  userAgent?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof userJson>;
}

/** A JWT-authenticated caller: the verified claims, its user row and its live session. */
export interface Caller {
  claims: AccessClaims;
  user: UserRow;
  session: SessionRow;
}

/** An OAuth-style error body (`{error, error_description}`), used by /token for a missing refresh token. */
export class OAuthError extends AuthError {
  constructor(
    readonly oauthError: string,
    description: string,
  ) {
    super(400, oauthError, description);
  }
}
