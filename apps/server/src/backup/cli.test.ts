// npm run backup / npm run restore as an operator runs them: refusals change nothing and say why in one line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetting, setSetting } from '../db/settings.js';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer } from '../server.js';
import { fingerprint, runCli } from './testing.js';

let work: string;
let backupFile: string;
const quiet = createLogger('silent');

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'engage-backup-cli-'));
  const dataDir = path.join(work, 'data');
  const server = await startServer(
    parseConfig({ PORT: '0', DATA_DIR: dataDir, ADMIN_PASSWORD: 'Correct-horse-9' }),
    quiet,
  );
  await setSetting(server.db, 'backup-probe', { n: 1 });
  await server.close();
  // No server runs: the command reads the stopped directory itself.
  backupFile = path.join(work, 'engage.tar');
  const result = await runCli('backup-cli', ['--out', backupFile], { DATA_DIR: dataDir });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  expect(result.stdout).toMatch(
    /written to .*engage\.tar \([\d.]+ [kM]?B, from the stopped data directory\)/,
  );
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A restore that must be refused: exit 1, one line naming the reason, the target exactly as it was. */
async function expectRefused(file: string, dataDir: string, reason: RegExp, args: string[] = []) {
  const before = fingerprint(dataDir);
  const result = await runCli('restore-cli', [file, ...args], { DATA_DIR: dataDir });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^Nothing restored: /);
  expect(result.stderr).toMatch(reason);
  expect(fingerprint(dataDir)).toEqual(before);
}

describe('npm run backup and npm run restore', () => {
  it('writes the backup 0600 and restores it into an absent directory, created 0700', async () => {
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const target = path.join(work, 'restored', 'data');
    const result = await runCli('restore-cli', [backupFile], { DATA_DIR: target });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Restored .*data from the backup of \d{4}-.*\(Engage [\d.]+\)\.\n$/);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    const server = await startServer(parseConfig({ PORT: '0', DATA_DIR: target }), quiet);
    try {
      expect(await getSetting(server.db, 'backup-probe')).toEqual({ n: 1 });
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses a non-empty directory without --force; with it, keeps the old contents aside', async () => {
    const target = path.join(work, 'busy');
    mkdirSync(target, { mode: 0o700 });
    writeFileSync(path.join(target, 'notes.txt'), 'mine');
    await expectRefused(backupFile, target, /busy is not empty: .*--force/);
    const forced = await runCli('restore-cli', [backupFile, '--force'], { DATA_DIR: target });
    expect(forced.status, forced.stderr).toBe(0);
    const previous = /previous contents are in (\S+)\.$/m.exec(forced.stdout)?.[1];
    expect(previous).toBeTruthy();
    expect(readFileSync(path.join(previous!, 'notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  it('refuses a truncated file and a file with a wrong checksum, into an empty or a missing directory', async () => {
    const file = readFileSync(backupFile);
    const truncated = path.join(work, 'truncated.tar');
    writeFileSync(truncated, file.subarray(0, Math.floor(file.length * 0.6)));
    const empty = path.join(work, 'empty');
    mkdirSync(empty, { mode: 0o700 });
    await expectRefused(truncated, empty, /truncated|not a complete archive|does not match/);
    await expectRefused(
      truncated,
      path.join(work, 'missing'),
      /truncated|not a complete archive|does not match/,
    );

    const damaged = Buffer.from(file);
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    const damagedFile = path.join(work, 'damaged.tar');
    writeFileSync(damagedFile, damaged);
    await expectRefused(damagedFile, empty, /checksum of database\.tar\.gz does not match/);
    await expectRefused(path.join(work, 'no-such.tar'), empty, /cannot be read \(ENOENT\)/);
  }, 60_000);

  it('with DATABASE_URL points to pg_dump and pg_restore instead', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: path.join(work, 'pg') };
    const backup = await runCli('backup-cli', ['--out', path.join(work, 'pg.tar')], env);
    expect(backup.status).toBe(1);
    expect(backup.stderr).toMatch(/pg_dump/);
    const restore = await runCli('restore-cli', [backupFile], env);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toMatch(/pg_restore/);
  });

  it('says how to call it when --out is missing', async () => {
    const result = await runCli('backup-cli', [], { DATA_DIR: path.join(work, 'data') });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Usage: npm run backup -- --out FILE/);
  });
});
