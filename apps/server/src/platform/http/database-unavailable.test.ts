import { isDatabaseUnavailable, noteDatabaseError } from '@engage/db';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer, type AuthTestServer } from '../../auth/http/server-harness.js';
import { allMigrations } from '../../server.js';
import { databaseUnavailable } from './database-unavailable.js';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** An app whose sub-app turns every error into its own 500, as the auth and emulator apps do. */
function appWith(failure: () => Error, onOutage?: () => void) {
  const app = new Hono();
  app.use('*', databaseUnavailable(onOutage));
  const sub = new Hono();
  sub.onError((_error, c) => c.json({ code: 500, error_code: 'unexpected_failure' }, 500));
  sub.get('/query', async () => {
    // What the database module does with every failed query before rethrowing it.
    const error = failure();
    await Promise.resolve();
    noteDatabaseError(error);
    throw error;
  });
  app.route('/sub', sub);
  app.get('/static', (c) => c.text('page'));
  return app;
}

describe('database outages', () => {
  it('answers 503 database_unavailable with Retry-After when a query met an unreachable database', async () => {
    let outages = 0;
    const res = await appWith(refused, () => (outages += 1)).request('/sub/query');
    expect(res.status).toBe(503);
    // Counted once for the operators' metrics.
    expect(outages).toBe(1);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: 'database_unavailable' });
  });

  it('leaves other failures as they were, and pages that need no database untouched', async () => {
    let outages = 0;
    const app = appWith(
      () => Object.assign(new Error('duplicate key'), { code: '23505' }),
      () => (outages += 1),
    );
    expect((await app.request('/sub/query')).status).toBe(500);
    expect(outages).toBe(0);
    expect((await app.request('/static')).status).toBe(200);
  });

  it('tells an unreachable database from a failed query', () => {
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    for (const error of [
      refused(),
      shutdown,
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([refused()], 'connect failed'),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }),
      new Error('wrapped', { cause: refused() }),
    ])
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    for (const error of [
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new Error('PGlite is closed'),
      'ECONNREFUSED',
    ])
      expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

// A table locked by another session, on a real PostgreSQL: the statement timeout ends the wait,
// and the request is answered as an outage. PGlite runs one statement at a time: nothing to wait on.
const postgres = testDbTargets().find((t) => t.name === 'postgres');
if (!postgres)
  console.warn('[database outages] ran on PGlite only: the locked-table test needs TEST_DATABASE_URL');

for (const target of postgres ? [postgres] : []) {
  describe(`a database too slow to answer (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;
    beforeAll(async () => {
      db = await target.open(allMigrations(), { statementTimeoutMs: 1_500 });
      srv = await startAuthTestServer(db);
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    it('answers 503 database_unavailable with Retry-After when a table stays locked', async () => {
      await srv.service.admin.create({
        email: 'locked-out@example.com',
        password: 'a-long-password-1',
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
      const { data } = await srv
        .client()
        .auth.signInWithPassword({ email: 'locked-out@example.com', password: 'a-long-password-1' });
      const token = data.session?.access_token as string;
      const answers = await db.transaction(async (tx) => {
        await tx.query('lock table auth_users in access exclusive mode');
        const signIn = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: srv.anonKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'locked-out@example.com', password: 'a-long-password-1' }),
        });
        const users = await fetch(`${srv.url}/api/admin/users`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        return [signIn, users];
      });
      for (const res of answers) {
        expect(res.status, res.url).toBe(503);
        expect(Number(res.headers.get('retry-after')), res.url).toBeGreaterThan(0);
        expect(await res.json(), res.url).toMatchObject({ error: 'database_unavailable' });
      }
    });
  });
}
