import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgres } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { startServer, type RunningServer } from './server.js';

// One limit for all instances: two real servers on one PostgreSQL database (a schema of
// its own) count every limit together.
const postgres = testDbTargets().some((t) => t.name === 'postgres');

// Skipped (and said so by testDbTargets) without TEST_DATABASE_URL: PGlite is one process.
describe.skipIf(!postgres)('limits across two instances on postgres', () => {
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `limits_${randomBytes(6).toString('hex')}`;
  const dirs: string[] = [];
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    const admin = await openPostgres(url, { max: 1 });
    await admin.exec(`create schema ${schema}`);
    await admin.close();
    const databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    // One after the other: start-up under load is the other change's subject.
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'engage-limits-instances-'));
      dirs.push(dir);
      servers.push(
        await startServer(
          parseConfig({
            PORT: '0',
            DATA_DIR: dir,
            DATABASE_URL: databaseUrl,
            LOG_LEVEL: 'silent',
            ADMIN_PASSWORD: 'instances-admin-1',
            EMULATOR_PUBLIC_KEY: 'pk-instances',
            EMULATOR_PRIVATE_KEY: 'sk-instances',
            EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS: '3',
          }),
          createLogger('silent'),
        ),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    const admin = await openPostgres(url, { max: 1 });
    await admin.exec(`drop schema if exists ${schema} cascade`);
    await admin.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("counts the emulator's per-address call limit once for both instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${servers[i % 2]!.url}/provider/call/web`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer pk-instances' },
        body: JSON.stringify({ assistantId: 'asst_index' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('counts wrong passwords for one account and address once for both instances', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const server = servers[i % 2]!;
      const { auth } = (await (await fetch(`${server.url}/config.json`)).json()) as {
        auth: { anonKey: string };
      };
      const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: auth.anonKey },
        body: JSON.stringify({ email: 'admin@example.com', password: `wrong-${i}` }),
      });
      codes.push(((await res.json()) as { error_code?: string }).error_code ?? '');
    }
    expect(codes).toEqual([...Array<string>(5).fill('invalid_credentials'), 'over_request_rate_limit']);
  });
});
