import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The runner evaluates this file first and its workers inherit the environment, so the port and the
// data directory chosen here are the same everywhere. Each run gets a fresh server and database.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
// e2e/embed.spec.ts serves a site of its own on this port, at 127.0.0.2 (listed in EMBED_ORIGINS) and
// 127.0.0.3 (not listed): other origins than the server's 127.0.0.1.
process.env.E2E_EMBED_PORT ??= String(Number(process.env.E2E_PORT) + 1);
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'engage-e2e-'));
process.env.E2E_ADMIN_PASSWORD ??= 'e2e-admin-password';
/**
 * Bootstrap admins, one per spec that signs in as an admin, never shared: a log-out revokes every
 * session of an account, and each spec must pass alone and in any order. admin@example.com is
 * auth.spec's (it logs it out).
 */
export const E2E_ADMINS = [
  'admin@example.com',
  'kb-admin@example.com',
  'kb-faults-admin@example.com',
  'dashboard-admin@example.com',
  'landing-admin@example.com',
  'widget-admin@example.com',
  'roles-admin@example.com',
  'actions-admin@example.com',
  'prerender-admin@example.com',
  'outbox-admin@example.com',
  'phone-admin@example.com',
  'layout-admin@example.com',
  'states-admin@example.com',
  'import-admin@example.com',
  'chat-admin@example.com',
  'mfa-admin@example.com',
  'oauth-admin@example.com',
  'conversations-admin@example.com',
  'embed-admin@example.com',
];
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // One retry: the specs share one server with ~15 parallel actors, and a timing flake must not sink a
  // whole CI run. A test that passes only on its retry is listed as "flaky" in the report: read it and fix it.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'off',
  },
  webServer: {
    // The compiled server, as `npm start` runs it (`npm run test:e2e` builds first).
    command: 'node --enable-source-maps apps/server/dist/main.js',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      // One bootstrap admin per spec that signs in: specs run in parallel, and a log-out (global
      // scope, as supabase-js does by default) revokes every session of that account.
      ADMIN_EMAILS: E2E_ADMINS.join(','),
      LOG_LEVEL: 'warn',
      // 127.0.0.2, .4 and .5: the sites of e2e/embed*.spec.ts (127.0.0.3 is theirs too, not listed).
      EMBED_ORIGINS: ['127.0.0.2', '127.0.0.4', '127.0.0.5']
        .map((ip) => `http://${ip}:${process.env.E2E_EMBED_PORT}`)
        .join(','),
      // Hosted services are never used by the end-to-end suite, whatever the developer's shell says.
      SUPABASE_URL: '',
      VAPI_PRIVATE_KEY: '',
      DATABASE_URL: '',
    },
  },
});
