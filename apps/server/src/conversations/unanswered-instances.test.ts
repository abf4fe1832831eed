import { randomUUID } from 'node:crypto';
import { openPostgres } from '@engage/db';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderTestServer, type ProviderTestServer } from '../provider/server-harness.js';
import { allMigrations } from '../server.js';
import { client, verify } from './conversations-harness.js';

// Two instances on one PostgreSQL (each its own pool, as two processes): each keeps the Unanswered
// tab's scan a minute in memory, and an answer saved or a conversation deleted through one of them
// drops the other's too (a counter in the database, read before serving the kept scan). Before, the
// other instance went on answering with questions already answered or deleted for up to 60 s.

const postgres = testDbTargets().find((t) => t.name === 'postgres');

describe.skipIf(!postgres)('the kept unanswered scan, two instances on one PostgreSQL', () => {
  let dbA: Db;
  let dbB: Db;
  let a: ProviderTestServer;
  let b: ProviderTestServer;
  let apiA: ReturnType<typeof client>;
  let apiB: ReturnType<typeof client>;

  beforeAll(async () => {
    dbA = await postgres!.open(allMigrations());
    const { rows } = await dbA.query<{ schema: string }>('select current_schema() as schema');
    dbB = await openPostgres(process.env.TEST_DATABASE_URL!, {
      connectionOptions: `-c search_path=${rows[0]!.schema}`,
      max: 2,
    });
    // One provider for both, as behind a load balancer: the same emulator keys over the same data.
    const env = { EMULATOR_PUBLIC_KEY: randomUUID(), EMULATOR_PRIVATE_KEY: randomUUID() };
    a = await startProviderTestServer(dbA, verify, env);
    b = await startProviderTestServer(dbB, verify, env);
    apiA = client(a.origin, env.EMULATOR_PUBLIC_KEY);
    apiB = client(b.origin, env.EMULATOR_PUBLIC_KEY);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbB?.close();
    await dbA?.close();
  });

  it('an answer saved or a conversation deleted through one drops the scan the other kept', async () => {
    await apiA.ask('Where do I park?');
    expect(await apiA.unanswered()).toEqual(['Where do I park?']);
    expect(await apiB.unanswered()).toEqual(['Where do I park?']);

    // Asked after both scanned: neither sees it while its kept scan stands (no provider reads).
    const lift = await apiA.ask('Is there a lift?');
    expect(await apiA.unanswered()).toEqual(['Where do I park?']);
    expect(await apiB.unanswered()).toEqual(['Where do I park?']);

    // Saved through A: B scans again at once.
    expect((await apiA.saveAnswer('Where do I park?', 'Behind the building.')).status).toBe(200);
    expect(await apiB.unanswered()).toEqual(['Is there a lift?']);
    expect(await apiA.unanswered()).toEqual(['Is there a lift?']);

    // Deleted through B: A scans again at once.
    expect((await apiB.send('DELETE', `/api/provider/chat/${lift.id}`, 'operator-token')).status).toBe(200);
    expect(await apiA.unanswered()).toEqual([]);
  });
});
