import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from './testing/compiled-server.js';

const root = path.resolve(import.meta.dirname, '../../..');
const entry = compiledEntry('main');

/** Every path under `dir` (itself included) whose mode lets group or others read, write or enter it. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (p: string) => {
    const stat = lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, p) || '.'}`);
    if (stat.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return found;
}

/** Starts the real entry point (`npm run serve`'s command) on a free port and waits for its URL. */
async function startMain(dataDir: string) {
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'main-test-pw',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Engage is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  // The lines printed after the URL (startup-summary.ts) come in the same write or the next.
  if (!/Bootstrap admin/.test(output))
    await new Promise<void>((resolve) => {
      const check = () => /Bootstrap admin/.test(output) && resolve();
      child.stdout.on('data', check);
    });
  return { child, url, output: () => output };
}

describe('main', () => {
  it('stops with a message naming PORT when PORT is invalid', () => {
    const result = spawnSync(process.execPath, entry, {
      cwd: root,
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT: must be a whole number');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints its URL, serves, and on %s shuts down cleanly, releasing the data directory',
    async (signal) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'engage-main-'));
      try {
        const { child, url, output } = await startMain(dataDir);
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        // Where mail goes (the outbox with its token, on the public origin) and the bootstrap admin.
        const { mailOutboxToken } = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as {
          mailOutboxToken: string;
        };
        // One origin printed and linked: the public one (localhost for a loopback listener), as in mail.
        const port = new URL(url).port;
        expect(url).toBe(`http://localhost:${port}`);
        expect(output()).toContain(`Mail outbox: ${url}/_mail?token=${mailOutboxToken}`);
        expect(output()).toContain('Bootstrap admin (ADMIN_EMAILS): admin@example.com');
        expect(output()).not.toContain('main-test-pw');
        expect(existsSync(path.join(dataDir, 'engage.lock'))).toBe(true);

        child.kill(signal);
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
        expect(existsSync(path.join(dataDir, 'engage.lock'))).toBe(false);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('creates DATA_DIR 0700 and keeps every file in it private to the owner, running and after stop', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'engage-main-'));
    const dataDir = path.join(parent, 'data'); // does not exist yet: the server creates it
    try {
      const { child, url } = await startMain(dataDir);
      // Write through every store: the database (a sign-up, whose mail link token lands in pg_wal) and secrets.
      const { auth } = (await (await fetch(`${url}/config.json`)).json()) as { auth: { anonKey: string } };
      const signUp = await fetch(`${url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: auth.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'perms@example.com', password: 'a-long-password-1' }),
      });
      expect(signUp.status).toBe(200);

      expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
      expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
      expect(openToOthers(dataDir)).toEqual([]);

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 60_000);
});
