import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutboxToken } from './auth/outbox/access.js';
import { parseConfig } from './platform/config.js';
import { openSecretStore } from './platform/secrets.js';
import { emulatorKeys } from './provider/emulator-keys.js';
import { compiledEntry } from './testing/compiled-server.js';

const root = path.resolve(import.meta.dirname, '../../..');
const entry = compiledEntry('keys-cli');
const dirs: string[] = [];

/** `npm run keys` on a data directory, with these variables (and none of the caller's provider/auth ones). */
function keys(dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  const base = { ...process.env };
  for (const name of Object.keys(base))
    if (/^(EMULATOR_|VAPI_|AUTH_|SUPABASE_)/.test(name)) delete base[name];
  const result = spawnSync(process.execPath, entry, {
    cwd: root,
    env: { ...base, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, string>;
}

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-keys-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm run keys', () => {
  it('prints the emulator keys the server uses, even before the server has ever run', () => {
    const dir = dataDir();
    const printed = keys(dir);
    const used = emulatorKeys(parseConfig({ DATA_DIR: dir }), openSecretStore(dir));
    expect(printed.emulatorPublicKey).toBe(used.publicKey);
    expect(printed.emulatorPrivateKey).toBe(used.privateKey);
    expect(printed.authAnonKey).toBeTruthy();
    expect(Object.keys(printed)).not.toContain('authSigningKey');
  });

  it('prints the mail outbox token the server checks, 256 bits, generated once', () => {
    const dir = dataDir();
    const printed = keys(dir);
    expect(printed.mailOutboxToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(printed.mailOutboxToken).toBe(mailOutboxToken(openSecretStore(dir)));
    expect(keys(dir).mailOutboxToken).toBe(printed.mailOutboxToken);
  });

  it('prints EMULATOR_PUBLIC_KEY / EMULATOR_PRIVATE_KEY when set, not keys generated earlier', () => {
    const dir = dataDir();
    emulatorKeys(parseConfig({ DATA_DIR: dir }), openSecretStore(dir)); // generated and stored
    const printed = keys(dir, { EMULATOR_PUBLIC_KEY: 'pk-from-env', EMULATOR_PRIVATE_KEY: 'sk-from-env' });
    expect(printed.emulatorPublicKey).toBe('pk-from-env');
    expect(printed.emulatorPrivateKey).toBe('sk-from-env');
  });
});
