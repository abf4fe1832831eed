// A backup of a running server while sign-ups go on, restored elsewhere: the accounts, provider files and
// keys of that moment are all there, nothing later is, and existing sessions and API keys keep working.
import { mkdtempSync, statSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BackupStatus } from '@engage/http-contract';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { openSecretStore } from '../platform/secrets.js';
import { emulatorKeys } from '../provider/emulator-keys.js';
import { startServer, type RunningServer } from '../server.js';
import { runCli } from './testing.js';

const quiet = createLogger('silent');
const work = mkdtempSync(path.join(tmpdir(), 'engage-live-backup-'));
const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close().catch(() => undefined)));
  rmSync(work, { recursive: true, force: true });
});

const PASSWORD = 'Lantern-orbit-42';
// One PUBLIC_URL for both, as a restored site keeps its address: tokens carry it as their issuer.
const env = (dataDir: string) => ({
  PORT: '0',
  PUBLIC_URL: 'http://engage.test',
  DATA_DIR: dataDir,
  ADMIN_PASSWORD: PASSWORD,
  AUTH_RATE_LIMIT_SIGNUP: '0',
  AUTH_RATE_LIMIT_TOKEN: '0',
});

async function anonKey(url: string): Promise<string> {
  const config = (await (await fetch(`${url}/config.json`)).json()) as { auth: { anonKey: string } };
  return config.auth.anonKey;
}

async function upload(url: string, key: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([`notes for ${name}`], { type: 'text/plain' }), name);
  const res = await fetch(`${url}/provider/file`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

interface SignUp {
  email: string;
  start: number;
  end: number;
  ok: boolean;
}

describe('a backup of a running server', () => {
  it('holds every account and file of its moment, none later, and the same keys', async () => {
    const dataA = path.join(work, 'a');
    const a = await startServer(parseConfig(env(dataA)), quiet);
    running.push(a);
    const apikey = await anonKey(a.url);
    const { privateKey } = emulatorKeys(parseConfig(env(dataA)), openSecretStore(dataA));
    const before = await upload(a.url, privateKey, 'before.txt');
    const signIn = await fetch(`${a.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const session = (await signIn.json()) as { access_token: string; refresh_token: string };

    // Sign-ups from three clients at once, before, during and after the backup.
    const signUps: SignUp[] = [];
    let stop = false;
    let n = 0;
    const client = async () => {
      while (!stop) {
        const email = `visitor${n++}@example.com`;
        const start = performance.now();
        const res = await fetch(`${a.url}/auth/v1/signup`, {
          method: 'POST',
          headers: { apikey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        signUps.push({ email, start, end: performance.now(), ok: res.status === 200 });
      }
    };
    const clients = [client(), client(), client()];
    while (signUps.length < 5) await new Promise((resolve) => setImmediate(resolve));
    const backupStart = performance.now();
    const file = path.join(work, 'live.tar');
    const backup = await runCli('backup-cli', ['--out', file], { DATA_DIR: dataA });
    const backupEnd = performance.now();
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/from the running server/);
    const countAtEnd = signUps.length;
    while (signUps.length < countAtEnd + 5) await new Promise((resolve) => setImmediate(resolve));
    stop = true;
    await Promise.all(clients);
    const after = await upload(a.url, privateKey, 'after.txt');
    expect(signUps.every((s) => s.ok)).toBe(true);
    await a.close();

    const dataB = path.join(work, 'b');
    const restore = await runCli('restore-cli', [file], { DATA_DIR: dataB });
    expect(restore.status, restore.stderr).toBe(0);
    const b = await startServer(parseConfig(env(dataB)), quiet);
    running.push(b);

    const { rows } = await b.db.query<{ email: string }>('select email from auth_users');
    const restored = new Set(rows.map((r) => r.email));
    const done = signUps.filter((s) => s.end < backupStart);
    const later = signUps.filter((s) => s.start > backupEnd);
    expect(done.length).toBeGreaterThan(0);
    expect(later.length).toBeGreaterThan(0);
    expect(done.filter((s) => !restored.has(s.email))).toEqual([]);
    expect(later.filter((s) => restored.has(s.email))).toEqual([]);

    // The same keys: the anon key, the emulator's private key, the signing key (the old session works).
    expect(await anonKey(b.url)).toBe(apikey);
    const fileStatus = async (id: string) =>
      (await fetch(`${b.url}/provider/file/${id}`, { headers: { Authorization: `Bearer ${privateKey}` } }))
        .status;
    expect(await fileStatus(before)).toBe(200);
    expect(await fileStatus(after)).toBe(404);
    const user = await fetch(`${b.url}/auth/v1/user`, {
      headers: { apikey, Authorization: `Bearer ${session.access_token}` },
    });
    expect(user.status).toBe(200);
    const refreshed = await fetch(`${b.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: session.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
  }, 120_000);
});

describe('scheduled backups of a running server', () => {
  it('writes the first at once and shows it to admins only, through GET /api/admin/backups', async () => {
    const dataDir = path.join(work, 'scheduled');
    const backupDir = path.join(work, 'scheduled-backups');
    const server = await startServer(
      parseConfig({ ...env(dataDir), BACKUP_DIR: backupDir, BACKUP_EVERY: '1h', BACKUP_KEEP: '2' }),
      quiet,
    );
    running.push(server);
    const apikey = await anonKey(server.url);
    const token = async (email: string) => {
      const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const status = async (bearer?: string) =>
      fetch(`${server.url}/api/admin/backups`, {
        headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
      });

    expect((await status()).status).toBe(401);
    const admin = await token('admin@example.com');
    await vi.waitFor(
      async () => {
        const body = (await (await status(admin)).json()) as BackupStatus;
        expect(body).toMatchObject({ mode: 'scheduled', everyMs: 3_600_000, keep: 2, lastError: null });
        expect(body.mode === 'scheduled' && body.last?.bytes).toBeGreaterThan(1000);
      },
      { timeout: 20_000, interval: 100 },
    );
    // The file is a whole backup: it restores.
    const [file] = readdirSync(backupDir);
    const restored = await runCli('restore-cli', [path.join(backupDir, file!)], {
      DATA_DIR: path.join(work, 'from-schedule'),
    });
    expect(restored.status, restored.stderr).toBe(0);

    await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'plain@example.com', password: PASSWORD }),
    });
    await server.db.query(
      `update auth_users set email_confirmed_at = now() where email = 'plain@example.com'`,
    );
    expect((await status(await token('plain@example.com'))).status).toBe(403);
  }, 60_000);

  it('shows the newest backup taken with npm run backup when nothing is scheduled', async () => {
    const dataDir = path.join(work, 'manual');
    const server = await startServer(parseConfig(env(dataDir)), quiet);
    running.push(server);
    const apikey = await anonKey(server.url);
    const signIn = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    const { access_token } = (await signIn.json()) as { access_token: string };
    const status = async () =>
      (await (
        await fetch(`${server.url}/api/admin/backups`, {
          headers: { Authorization: `Bearer ${access_token}` },
        })
      ).json()) as BackupStatus;
    expect(await status()).toEqual({ mode: 'off', last: null });

    const file = path.join(work, 'by-hand.tar');
    const backup = await runCli('backup-cli', ['--out', file], { DATA_DIR: dataDir });
    expect(backup.status, backup.stderr).toBe(0);
    const shown = await status();
    expect(shown).toMatchObject({ mode: 'off', last: { file, bytes: statSync(file).size } });
    expect(shown.mode === 'off' && Date.now() - Date.parse(shown.last?.at ?? '')).toBeLessThan(60_000);
  }, 60_000);
});
