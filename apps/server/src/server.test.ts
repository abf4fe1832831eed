import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseOpenError } from './db/open.js';
import { getSetting, setSetting } from './db/settings.js';
import { parseConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { startServer, type RunningServer } from './server.js';

const quiet = createLogger('silent');
const dirs: string[] = [];
const servers: RunningServer[] = [];

function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-server-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('startServer on the embedded database', () => {
  it('keeps a row written through the db module across a restart', async () => {
    const dataDir = tempDir();
    const config = parseConfig({ PORT: '0', DATA_DIR: dataDir });
    const first = await startServer(config, quiet);
    await setSetting(first.db, 'restart-probe', { written: true });
    await first.close();

    const second = await startServer(config, quiet);
    servers.push(second);
    expect(await getSetting(second.db, 'restart-probe')).toEqual({ written: true });
    const health = await fetch(`${second.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('hands a generated bootstrap admin password to its caller once, never to the log, and it signs in', async () => {
    const dataDir = tempDir();
    const config = parseConfig({ PORT: '0', DATA_DIR: dataDir, ADMIN_EMAILS: 'boot@example.com' });
    const logLines: string[] = [];
    const logger = createLogger('debug', (line) => logLines.push(line));
    const first = await startServer(config, logger);
    servers.push(first);
    expect(first.generatedAdmin?.emails).toEqual(['boot@example.com']);
    const password = first.generatedAdmin?.password as string;
    expect(password).toBeTruthy();
    const { auth } = (await (await fetch(`${first.url}/config.json`)).json()) as {
      auth: { anonKey: string };
    };
    const signIn = await fetch(`${first.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: auth.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'boot@example.com', password }),
    });
    expect(signIn.status).toBe(200);
    expect(logLines.join('\n')).not.toContain(password);
    await servers.pop()?.close();

    const second = await startServer(config, logger);
    servers.push(second);
    expect(second.generatedAdmin).toBeNull();
  });

  it('refuses a data directory held by a running server, with a clear message', async () => {
    const dataDir = tempDir();
    const config = parseConfig({ PORT: '0', DATA_DIR: dataDir });
    servers.push(await startServer(config, quiet));
    await expect(startServer(config, quiet)).rejects.toThrow(DatabaseOpenError);
    await expect(startServer(config, quiet)).rejects.toThrow(/in use by another Engage server/);
  });

  it('creates a missing DATA_DIR 0700 and takes group/other bits off the database files, umask aside', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const server = await startServer(parseConfig({ PORT: '0', DATA_DIR: dataDir }), quiet);
    servers.push(server);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // PGlite unpacks its initial files 0666 whatever the umask (this worker's is 022).
    expect(statSync(path.join(dataDir, 'db', 'PG_VERSION')).mode & 0o077).toBe(0);
    expect(statSync(path.join(dataDir, 'engage.lock')).mode & 0o077).toBe(0);
  });

  it('warns, naming chmod 700, when an existing DATA_DIR is open to other users, and leaves it as set', async () => {
    const open = tempDir();
    chmodSync(open, 0o755);
    const lines: string[] = [];
    servers.push(
      await startServer(
        parseConfig({ PORT: '0', DATA_DIR: open }),
        createLogger('warn', (l) => lines.push(l)),
      ),
    );
    const warning = lines
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .find((l) => l.msg.includes('chmod'));
    expect(warning?.level).toBe('warn');
    expect(warning?.msg).toContain(`chmod 700 ${open}`);
    expect(statSync(open).mode & 0o777).toBe(0o755);

    await servers.pop()?.close();
    chmodSync(open, 0o700);
    lines.length = 0;
    servers.push(
      await startServer(
        parseConfig({ PORT: '0', DATA_DIR: open }),
        createLogger('warn', (l) => lines.push(l)),
      ),
    );
    expect(lines.join('\n')).not.toContain('chmod');
  });

  it('reports a damaged database directory without a stack trace', async () => {
    const dataDir = tempDir();
    mkdirSync(path.join(dataDir, 'db'), { recursive: true });
    writeFileSync(path.join(dataDir, 'db', 'PG_VERSION'), 'garbage');
    const config = parseConfig({ PORT: '0', DATA_DIR: dataDir });
    await expect(startServer(config, quiet)).rejects.toThrow(/could not be opened; it may be damaged/);
  });
});
