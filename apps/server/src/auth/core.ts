// What every endpoint family of the embedded auth shares: the options with their defaults, the
// clock, the rate limiters, issuing a token response and authenticating a Bearer token.
import { randomBytes } from 'node:crypto';
import { addressKey } from '@engage/rate-limit';
import { AuthError, authErrors } from './errors.js';
import { tokenSecretOf } from './link-tokens.js';
import { hashPassword } from './passwords.js';
import { createRateLimiters, type LimitName } from './rate-limit.js';
import { safeRedirect } from './redirects.js';
import { createSession, findSession, type SessionRow } from './sessions.js';
import {
  ACCESS_TOKEN_LIFETIME_S,
  asAccessClaims,
  signAccessToken,
  verifyJwt,
  type AmrEntry,
} from './tokens.js';
import type { AuthServiceOptions, Caller, RequestContext, TokenResponse } from './types.js';
import { appMetadataOf, findUserById, listFactors, USER_COLUMNS, userJson, type UserRow } from './users.js';

export type AuthCore = ReturnType<typeof createAuthCore>;

export function createAuthCore(opts: AuthServiceOptions) {
  const { db, keys } = opts;
  const now = opts.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const limiters = createRateLimiters(opts.rateLimits, now, opts.limitStore);
  const resendMs = (opts.emailResendIntervalSeconds ?? 60) * 1000;
  const hash = opts.hashPassword ?? hashPassword;
  let dummy: Promise<string> | undefined;
  const siteUrl = () => opts.publicOrigin();
  /** `iss` of every access token: the auth API's own address. */
  const issuer = () => `${opts.publicOrigin()}/auth/v1`;

  async function tokenResponse(
    user: UserRow,
    session: SessionRow,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const iat = nowSeconds();
    const access = await signAccessToken(keys, {
      userId: user.id,
      email: user.email,
      appMetadata: appMetadataOf(user),
      userMetadata: user.raw_user_meta_data,
      sessionId: session.id,
      aal: session.aal,
      amr: session.amr,
      isAnonymous: user.is_anonymous,
      issuer: issuer(),
      nowSeconds: iat,
    });
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_S,
      expires_at: iat + ACCESS_TOKEN_LIFETIME_S,
      refresh_token: refreshToken,
      user: userJson(user, await listFactors(db, user.id)),
    };
  }

  const isBanned = (user: UserRow) =>
    user.banned_until !== null && new Date(user.banned_until).getTime() > now();

  /** Verifies a Bearer access token: signature, expiry, live session, existing unbanned user. */
  async function authenticate(token: string | null): Promise<Caller> {
    if (!token) throw authErrors.noAuthorization();
    const claims = asAccessClaims(await verifyJwt(keys, token, nowSeconds()));
    if (claims.iss !== issuer()) throw authErrors.badJwt('invalid claim: iss is not this server');
    const [session, user] = await Promise.all([
      findSession(db, claims.session_id),
      findUserById(db, claims.sub),
    ]);
    if (!user) throw authErrors.userNotFound(403);
    if (!session || session.user_id !== user.id) throw authErrors.sessionNotFound();
    if (isBanned(user)) throw userBanned(403);
    return { claims, user, session };
  }

  return {
    opts,
    db,
    keys,
    /** The key of email link tokens (link-tokens.ts), derived from the signing key. */
    tokenSecret: tokenSecretOf(keys.privateKey),
    mailer: opts.mailer,
    now,
    nowSeconds,
    limiters,
    hash,
    siteUrl,
    issuer,
    linkLifetimeMs: (opts.emailLinkLifetimeSeconds ?? 86_400) * 1000,
    reuseMs: opts.refreshReuseIntervalSeconds * 1000,
    autoconfirm: opts.autoconfirm ?? false,
    tokenResponse,
    authenticate,
    isBanned,

    /** A hash of a random password: the same work as a real check when there is no user. */
    dummyHash: () => (dummy ??= hash(randomBytes(16).toString('hex'))),

    /**
     * Counts one request of the caller's address (IPv6 by its /64) on a per-address limit; 429
     * `over_request_rate_limit` when it is spent.
     */
    async limit(name: LimitName, ip: string) {
      if (!(await limiters[name].take(addressKey(ip))).allowed) throw authErrors.requestRateLimit();
    },

    /** This site's URL for a requested redirect (never another origin). */
    redirect: (requested: string | undefined | null) => safeRedirect(siteUrl(), requested),

    /** 429 `over_email_send_rate_limit` while the resend interval since `sentAt` runs. */
    checkResend(sentAt: Date | null) {
      if (!sentAt) return;
      const elapsed = now() - new Date(sentAt).getTime();
      if (elapsed < resendMs) throw authErrors.emailRateLimit(Math.ceil((resendMs - elapsed) / 1000));
    },

    /** A new session for the user (amr `method`), `last_sign_in_at` set, as a token response. */
    async signIn(user: UserRow, method: string, ctx: RequestContext): Promise<TokenResponse> {
      const amr: AmrEntry[] = [{ method, timestamp: nowSeconds() }];
      const { session, refreshToken } = await createSession(db, user.id, {
        amr,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      const { rows } = await db.query<UserRow>(
        `update auth_users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`,
        [user.id],
      );
      return tokenResponse(rows[0] ?? user, session, refreshToken);
    },
  };
}

/** GoTrue's answer to a banned user: 400 on /token, 403 on JWT endpoints and /verify. */
export const userBanned = (status: 400 | 403) => new AuthError(status, 'user_banned', 'User is banned');
