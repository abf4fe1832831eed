// Test support: the embedded auth on a real port over a given database, for supabase-js tests.
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../app-harness.js';
import type { VerifyAccessToken } from '../../platform/http/require-auth.js';
import { createPublicOrigin } from '../../platform/public-origin.js';
import { createAuthRuntime } from '../embedded.js';
import { NO_LIMITS, type RateLimitOptions } from '../rate-limit.js';
import type { AuthService } from '../service.js';

export interface AuthTestServer {
  url: string;
  /** The public origin links and the token issuer use: PUBLIC_URL, or `http://localhost:PORT`. */
  origin: string;
  /** The composed app, for requests without a socket (`app.request`). */
  app: TestApp['app'];
  anonKey: string;
  serviceRoleKey: string;
  service: AuthService;
  verifyAccessToken: VerifyAccessToken;
  /** A fresh supabase-js client (own in-memory storage) with the anon key, or the service key. */
  client(key?: 'anon' | 'service', flowType?: 'implicit' | 'pkce'): SupabaseClient;
  /** The newest outbox mail to an address, with the first link in it. */
  lastMail(to: string): Promise<{
    subject: string;
    kind: string;
    link: string | null;
    /** The six-digit code in the mail, if any. */
    code: string | null;
    text: string;
  } | null>;
  mailCount(to: string): Promise<number>;
  close(): Promise<void>;
}

export interface AuthTestServerOptions {
  env?: Record<string, string>;
  rateLimits?: RateLimitOptions;
  emailResendIntervalSeconds?: number;
  /** The auth service's clock (milliseconds), for tests of lifetimes. */
  now?: () => number;
  /** The cap on pending WebAuthn challenges (default MAX_PENDING_CHALLENGES). */
  maxPendingChallenges?: number;
  /** The longest wait for the pending challenges' lock, ms. */
  challengeLockTimeoutMs?: number;
}

export async function startAuthTestServer(
  db: Db,
  options: AuthTestServerOptions = {},
): Promise<AuthTestServer> {
  let runtime!: ReturnType<typeof createAuthRuntime>;
  let publicOrigin!: ReturnType<typeof createPublicOrigin>;
  const test = await startTestApp({
    db,
    env: { LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', ...options.env },
    deps: ({ config, secrets }) => {
      // As in server.ts: one origin from configuration, told the real port once listening.
      publicOrigin = createPublicOrigin(config);
      runtime = createAuthRuntime({
        config,
        db,
        publicOrigin: publicOrigin.get,
        secrets,
        rateLimits: options.rateLimits ?? NO_LIMITS,
        emailResendIntervalSeconds: options.emailResendIntervalSeconds ?? 0,
        now: options.now,
        maxPendingChallenges: options.maxPendingChallenges,
        challengeLockTimeoutMs: options.challengeLockTimeoutMs,
      });
      return {
        verifyAccessToken: runtime.verifyAccessToken,
        auth: runtime.service,
        authAnonKey: runtime.anonKey,
        publicOrigin: publicOrigin.get,
      };
    },
  });
  const service = runtime.service as AuthService;
  const { app } = test;
  const { server } = await test.listen();
  const port = (server.address() as AddressInfo).port;
  publicOrigin.listening(port);
  const url = `http://127.0.0.1:${port}`;
  const keys = service.keys;
  return {
    url,
    origin: publicOrigin.get(),
    app,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    service,
    verifyAccessToken: runtime.verifyAccessToken,
    client(key = 'anon', flowType = 'implicit') {
      return createClient(url, key === 'anon' ? keys.anonKey : keys.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
        // Node 20 has no global WebSocket; realtime is never used here but must be constructible.
        realtime: { transport: WebSocket as never },
      });
    },
    async lastMail(to) {
      const { rows } = await db.query<{ subject: string; kind: string; text_body: string }>(
        'select subject, kind, text_body from mail_outbox where to_address = $1 order by created_at desc limit 1',
        [to],
      );
      const mail = rows[0];
      if (!mail) return null;
      return {
        subject: mail.subject,
        kind: mail.kind,
        text: mail.text_body,
        link: /https?:\/\/\S+/.exec(mail.text_body)?.[0] ?? null,
        code: /\b(\d{6})\b/.exec(mail.text_body)?.[1] ?? null,
      };
    },
    async mailCount(to) {
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from mail_outbox where to_address = $1',
        [to],
      );
      return rows[0]?.n ?? 0;
    },
    close: () => test.close(),
  };
}
