import type { Db } from '@engage/db';
import type { LimitStore } from '@engage/rate-limit';
import { limitStoreFor } from '../db/limit-store.js';
import type { Config } from '../platform/config.js';
import type { VerifyAccessToken } from '../platform/http/require-auth.js';
import { createPublicOrigin, type PublicOrigin } from '../platform/public-origin.js';
import type { SecretStore } from '../platform/secrets.js';
import { loadAuthKeys, type LoadAuthKeysOptions } from './keys.js';
import { siteMailer, type Mailer } from './mail.js';
import type { BucketSpec, RateLimitOptions } from './rate-limit.js';
import { createAuthService, type AuthService } from './service.js';
import { createVerifyAccessToken } from './verify-access-token.js';

export interface AuthRuntime {
  /** The embedded service; null when hosted Supabase is configured. */
  service: AuthService | null;
  verifyAccessToken: VerifyAccessToken;
  /** The anon key the browser gets through /config.json. */
  anonKey: string | null;
}

export interface AuthRuntimeOptions {
  config: Config;
  db: Db;
  secrets: SecretStore;
  rateLimits?: RateLimitOptions;
  /** The server's one limit store (db/limit-store.ts); memory when absent. */
  limitStore?: LimitStore;
  emailResendIntervalSeconds?: number;
  mailer?: Mailer;
  /** The server's public origin (server.ts); PUBLIC_URL or the configured listen address otherwise. */
  publicOrigin?: PublicOrigin;
  now?: () => number;
  /** WebAuthn challenges pending at once (default MAX_PENDING_CHALLENGES); tests set a small one. */
  maxPendingChallenges?: number;
  /** Longest wait for the pending challenges' lock, ms; tests set a short one. */
  challengeLockTimeoutMs?: number;
}

const perFiveMinutes = (n: number): BucketSpec | null =>
  n === 0 ? null : { burst: Math.min(30, n), perWindow: n, windowMs: 5 * 60_000 };

/** AUTH_RATE_LIMIT_*: per-IP requests per 5 minutes (anonymous sign-ins: per hour); the MFA and per-address limits keep their defaults. */
export function rateLimitsFromConfig(config: Config): RateLimitOptions {
  const signup = perFiveMinutes(config.AUTH_RATE_LIMIT_SIGNUP);
  return {
    token: perFiveMinutes(config.AUTH_RATE_LIMIT_TOKEN),
    signup,
    recover: signup,
    verify: perFiveMinutes(config.AUTH_RATE_LIMIT_VERIFY),
    anonymous:
      config.AUTH_RATE_LIMIT_ANONYMOUS === 0
        ? null
        : {
            burst: Math.min(30, config.AUTH_RATE_LIMIT_ANONYMOUS),
            perWindow: config.AUTH_RATE_LIMIT_ANONYMOUS,
            windowMs: 60 * 60_000,
          },
  };
}

/** The auth keys the environment sets (AUTH_SIGNING_KEY, AUTH_ANON_KEY, AUTH_SERVICE_ROLE_KEY). */
export const authKeyOverrides = (config: Config): LoadAuthKeysOptions => ({
  signingKey: config.AUTH_SIGNING_KEY,
  anonKey: config.AUTH_ANON_KEY,
  serviceRoleKey: config.AUTH_SERVICE_ROLE_KEY,
});

/** Builds the auth side of the server from the configuration: embedded service or hosted Supabase. */
export function createAuthRuntime(opts: AuthRuntimeOptions): AuthRuntime {
  const { config } = opts;
  if (!config.embeddedAuth && config.SUPABASE_URL) {
    return {
      service: null,
      verifyAccessToken: createVerifyAccessToken({
        mode: 'hosted',
        supabaseUrl: config.SUPABASE_URL,
        anonKey: config.SUPABASE_ANON_KEY ?? '',
      }),
      anonKey: config.SUPABASE_ANON_KEY ?? null,
    };
  }
  const keys = loadAuthKeys(opts.secrets, authKeyOverrides(config));
  const service = createAuthService({
    db: opts.db,
    keys,
    mailer: opts.mailer ?? siteMailer(config, opts.db),
    siteTitle: config.siteTitle,
    webauthnOrigins: config.AUTH_WEBAUTHN_RP_ORIGINS,
    adminEmails: config.ADMIN_EMAILS,
    refreshReuseIntervalSeconds: config.AUTH_REFRESH_REUSE_INTERVAL,
    autoconfirm: config.AUTH_AUTOCONFIRM,
    securePasswordChange: config.AUTH_SECURE_PASSWORD_CHANGE,
    passwordChangeNeedsCurrent: config.AUTH_PASSWORD_CHANGE_NEEDS_CURRENT,
    anonymous: config.AUTH_ANONYMOUS
      ? {
          maxUsers: config.AUTH_ANONYMOUS_MAX_USERS,
          retentionDays: config.AUTH_ANONYMOUS_RETENTION_DAYS,
        }
      : undefined,
    rateLimits: opts.rateLimits ?? rateLimitsFromConfig(config),
    limitStore: opts.limitStore ?? limitStoreFor(opts.db),
    emailResendIntervalSeconds: opts.emailResendIntervalSeconds,
    publicOrigin: opts.publicOrigin ?? createPublicOrigin(config).get,
    now: opts.now,
    maxPendingChallenges: opts.maxPendingChallenges,
    challengeLockTimeoutMs: opts.challengeLockTimeoutMs,
  });
  return {
    service,
    verifyAccessToken: createVerifyAccessToken({ mode: 'embedded', service }),
    anonKey: keys.anonKey,
  };
}
