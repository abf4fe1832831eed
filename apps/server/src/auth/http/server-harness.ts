// Test support: the embedded auth on a real port over a given database, for supabase-js tests.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import { serve } from '@hono/node-server';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { createApp } from '../../app.js';
import { parseConfig } from '../../platform/config.js';
import type { VerifyAccessToken } from '../../platform/http/require-auth.js';
import { createLogger } from '../../platform/logger.js';
import { createPublicOrigin } from '../../platform/public-origin.js';
import { openSecretStore } from '../../platform/secrets.js';
import { createAuthRuntime } from '../embedded.js';
import { NO_LIMITS, type RateLimitOptions } from '../rate-limit.js';
import type { AuthService } from '../service.js';

export interface AuthTestServer {
  url: string;
  /** The public origin links and the token issuer use: PUBLIC_URL, or `http://localhost:PORT`. */
  origin: string;
  /** The composed app, for requests without a socket (`app.request`). */
  app: ReturnType<typeof createApp>;
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
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-auth-'));
  const config = parseConfig({
    DATA_DIR: dir,
    SITE_DIR: dir,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    ...options.env,
  });
  // As in server.ts: one origin from configuration, told the real port once listening.
  const publicOrigin = createPublicOrigin(config);
  const runtime = createAuthRuntime({
    config,
    db,
    publicOrigin: publicOrigin.get,
    secrets: openSecretStore(dir),
    rateLimits: options.rateLimits ?? NO_LIMITS,
    emailResendIntervalSeconds: options.emailResendIntervalSeconds ?? 0,
    now: options.now,
    maxPendingChallenges: options.maxPendingChallenges,
    challengeLockTimeoutMs: options.challengeLockTimeoutMs,
  });
  const service = runtime.service as AuthService;
  const app = createApp({
    config,
    db,
    logger: createLogger('silent'),
    secrets: openSecretStore(dir),
    verifyAccessToken: runtime.verifyAccessToken,
    auth: service,
    authAnonKey: runtime.anonKey,
    publicOrigin: publicOrigin.get,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
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
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
