// Shared by bench:bundle and bench:lighthouse: builds what is out of date, starts the compiled server on a free port
// with a fresh data directory, and signs a user in (the session a browser would have stored).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const PAGES = ['/', '/ediscovery', '/onboarding'];
const EMAIL = 'bench-admin@example.com';
const PASSWORD = 'bench-admin-password';

export function buildSite() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--quiet'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function startServer() {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'engage-bench-site-')),
      ADMIN_EMAILS: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      SUPABASE_URL: '',
      VAPI_PRIVATE_KEY: '',
      DATABASE_URL: '',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    // Up to 2 minutes: on a machine shared with other work the first start (PGlite, migrations) is slow.
    if (i > 1200 || child.exitCode !== null) throw new Error('The server did not start.');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Warm the server's Brotli cache: the first request of each file compresses it once.
  for (const p of PAGES) {
    const html = await (await fetch(base + p, { headers: { 'Accept-Encoding': 'br' } })).text();
    // Attributes and the inline loader's module list (apps/site/scripts/prerender.mjs).
    for (const [, href] of html.matchAll(/"(\/[^"]+\.(?:js|css|svg))"/g))
      await fetch(base + href, { headers: { 'Accept-Encoding': 'br' } });
  }
  return { base, stop: () => child.kill('SIGTERM') };
}

/** Signs the bench admin in; returns the localStorage entry auth-js would have written. */
export async function storedSession(base) {
  const config = await (await fetch(`${base}/config.json`)).json();
  const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: config.auth.anonKey },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`Sign-in failed: ${res.status} ${await res.text()}`);
  const session = await res.json();
  session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
  return { key: `sb-${new URL(base).hostname.split('.')[0]}-auth-token`, value: JSON.stringify(session) };
}
