// The environment variables the server reads, each with its type, range and default: one zod
// schema, from which docs/configuration.md is generated (config-docs.ts). Reading them is config.ts.
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { z } from 'zod';
import { checkPassword } from '../auth/passwords.js';
import { embedOriginsSchema } from './embed-origins.js';
import { DEFAULT_MAX_JSON_BYTES } from './http/body-limit.js';

const optionalUrl = z.url().optional();

/** True for a JSON private JWK on P-256 that node:crypto accepts (AUTH_SIGNING_KEY). */
function isEs256PrivateJwk(value: string): boolean {
  try {
    const jwk = JSON.parse(value) as JsonWebKey;
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') return false;
    createPrivateKey({ key: jwk, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/** A whole number in a range, with a message an operator understands. */
const intVar = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);
const optionalString = z.string().min(1).optional();

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

/**
 * UNANSWERED_PHRASES: what the assistant says when it cannot answer, `|` between phrases (the
 * conversations page's "Unanswered questions"); unset: @engage/http-contract's UNANSWERED_PHRASES.
 */
const phraseList = z
  .string()
  .transform((value) =>
    value
      .split('|')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().max(200, 'each phrase must be at most 200 characters'))
      .min(1, 'must hold at least one phrase')
      .max(50, 'must hold at most 50 phrases'),
  );

const rolePhrases = z.array(z.string().trim().min(1).max(80)).max(20);

export const siteConfigSchema = z.object({
  siteTitle: z.string().min(1),
  ownerDomain: z.string().min(1),
  /** What each landing page lists (the site shows them; the assistants' starter documents name them). */
  roles: z
    .object({ index: rolePhrases, ediscovery: rolePhrases, onboarding: rolePhrases })
    .default({ index: [], ediscovery: [], onboarding: [] }),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** The environment schema: documented in docs/configuration.md, one row per variable. */
export const envSchema = z.object({
  PORT: intVar(0, 65535, 8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  ADMIN_EMAILS: emailList.default(['admin@example.com']),
  // Accounts given the operator role (the server's provider key) at start-up; none by default.
  OPERATOR_EMAILS: emailList.default([]),
  // The auth service's one password rule (auth/passwords.ts): checked here so a bad one stops start-up.
  ADMIN_PASSWORD: z
    .string()
    .superRefine((value, ctx) => {
      const problem = checkPassword(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message });
    })
    .optional(),
  SUPABASE_URL: optionalUrl,
  SUPABASE_ANON_KEY: optionalString,
  SUPABASE_SERVICE_ROLE_KEY: optionalString,
  VAPI_API_URL: z.url().default('https://api.vapi.ai'),
  VAPI_PUBLIC_KEY: optionalString,
  // The real provider's public key for the sign-in-only pages (restricted to their assistants).
  VAPI_MEMBERS_PUBLIC_KEY: optionalString,
  VAPI_PRIVATE_KEY: optionalString,
  UNANSWERED_PHRASES: phraseList.optional(),
  AUTH_ANON_KEY: optionalString,
  AUTH_SERVICE_ROLE_KEY: optionalString,
  // The embedded auth's ES256 signing key as a private JWK (JSON), instead of the generated one.
  AUTH_SIGNING_KEY: z
    .string()
    .refine(isEs256PrivateJwk, 'must be a private EC P-256 key as a JWK (JSON with kty, crv, x, y and d)')
    .optional(),
  // The /_mail outbox's token, instead of the generated one.
  MAIL_OUTBOX_TOKEN: z.string().min(32, 'must be at least 32 characters').max(256).optional(),
  // GET /metrics (Prometheus) is off without it; with it, only for `Authorization: Bearer <token>`.
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').max(256).optional(),
  AUTH_REFRESH_REUSE_INTERVAL: intVar(0, 86_400, 10),
  // Requests per 5 minutes per client IP (GoTrue's defaults); 0 turns a limit off.
  AUTH_RATE_LIMIT_TOKEN: intVar(0, 1_000_000, 150),
  AUTH_RATE_LIMIT_SIGNUP: intVar(0, 1_000_000, 30),
  AUTH_RATE_LIMIT_VERIFY: intVar(0, 1_000_000, 30),
  // GoTrue's MAILER_AUTOCONFIRM: sign-ups are confirmed at once and POST /signup returns a session.
  AUTH_AUTOCONFIRM: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(false),
  // GoTrue's UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: a password change from a session older than
  // 24 hours needs the nonce GET /reauthenticate mails.
  AUTH_SECURE_PASSWORD_CHANGE: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(false),
  // GoTrue's UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: a password change needs the current password
  // (not from a reset link's session). On by default here: a stolen session must not be able to
  // take the account over.
  AUTH_PASSWORD_CHANGE_NEEDS_CURRENT: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(true),
  // GoTrue's anonymous sign-ins (signInAnonymously()); off by default, as in GoTrue.
  AUTH_ANONYMOUS: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(false),
  // Anonymous sign-ins per hour per client address (IPv6 by /64; GoTrue's default 30); 0 turns it off.
  AUTH_RATE_LIMIT_ANONYMOUS: intVar(0, 1_000_000, 30),
  // At most this many anonymous users at once: past it, new anonymous sign-ins get 429.
  AUTH_ANONYMOUS_MAX_USERS: intVar(1, 10_000_000, 10_000),
  // Anonymous users never upgraded to an email account are deleted after this many days.
  AUTH_ANONYMOUS_RETENTION_DAYS: intVar(1, 3650, 30),
  // Admins must have a verified second factor (and use it) before the admin API answers them.
  ADMIN_REQUIRE_MFA: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(false),
  EMULATOR_PUBLIC_KEY: optionalString,
  EMULATOR_MEMBERS_PUBLIC_KEY: optionalString,
  EMULATOR_PRIVATE_KEY: optionalString,
  // The landing pages' assistants; the defaults are the ones the embedded emulator seeds.
  ASSISTANT_ID_INDEX: z.string().trim().min(1).default('asst_index'),
  ASSISTANT_ID_EDISCOVERY: z.string().trim().min(1).default('asst_ediscovery'),
  ASSISTANT_ID_ONBOARDING: z.string().trim().min(1).default('asst_onboarding'),
  // POST /api/calls/websocket: which assistants it may start ('*' for any), for whom, how often.
  WEBSOCKET_CALL_ASSISTANTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().regex(/^(\*|[\w.:-]{1,128})$/, 'must be assistant ids separated by commas, or *')),
    )
    .optional(),
  WEBSOCKET_CALLS_ANONYMOUS: z
    .enum(['true', 'false'], 'must be true or false')
    .transform((v) => v === 'true')
    .default(true),
  WEBSOCKET_CALLS_PER_MINUTE: intVar(1, 10_000, 10),
  // Other sites that may run the widget (/embed.js); platform/embed-origins.ts.
  EMBED_ORIGINS: embedOriginsSchema,
  // GoTrue's WEBAUTHN_RP_ORIGINS: origins besides PUBLIC_URL's that may use passkeys and security
  // keys for the same relying party (PUBLIC_URL's host name), e.g. the site under www. as well.
  AUTH_WEBAUTHN_RP_ORIGINS: embedOriginsSchema,
  // The emulator's call rooms held at once; one more is refused (close code 1013).
  CALL_ROOMS_MAX: intVar(1, 10_000, 50),
  // Per client address (the socket's, never X-Forwarded-For): call rooms held at once (1013 past it),
  // and POST /provider/call/web per minute (429 past it).
  CALL_ROOMS_PER_ADDRESS: intVar(1, 10_000, 5),
  EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS: intVar(1, 100_000, 20),
  EMULATOR_CHATS_PER_MINUTE_PER_ADDRESS: intVar(1, 100_000, 60),
  // Days the embedded provider keeps calls and chats (with their messages); older ones are pruned hourly.
  EMULATOR_CONVERSATION_DAYS: intVar(1, 3650, 30),
  // With the real provider: days a visitor's address for an answer by mail is kept (the embedded
  // provider keeps it as long as the conversation, EMULATOR_CONVERSATION_DAYS).
  VISITOR_ADDRESS_DAYS: intVar(1, 3650, 30),
  // Requests for an answer by mail: per visitor address per day, and per client address per hour.
  ANSWER_REQUESTS_PER_EMAIL_PER_DAY: intVar(1, 1000, 3),
  ANSWER_REQUESTS_PER_CLIENT_PER_HOUR: intVar(1, 10_000, 10),
  // Largest request body on any route except file uploads (which have their own caps): 1 MiB.
  MAX_JSON_BYTES: intVar(1024, 1024 * 1024 * 1024, DEFAULT_MAX_JSON_BYTES),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SITE_TITLE: optionalString,
  OWNER_DOMAIN: optionalString,
  SITE_DIR: optionalString,
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  // Scheduled backups of the embedded database (backup/schedule.ts): where, how often, how many kept.
  BACKUP_DIR: optionalString,
  BACKUP_EVERY: z
    .string()
    .regex(/^\d{1,6}[mhd]$/, 'must be a duration such as 30m, 24h or 7d')
    .transform(
      (v) =>
        Number(v.slice(0, -1)) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[v.slice(-1) as 'm' | 'h' | 'd'],
    )
    .pipe(
      z
        .number()
        .min(60_000, 'must be at least 1m')
        .max(366 * 86_400_000, 'must be at most 366d'),
    )
    .optional(),
  BACKUP_KEEP: intVar(1, 10_000, 7),
});

export type Env = z.infer<typeof envSchema>;

/** Every environment variable the server reads (docs/configuration.md lists each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);
