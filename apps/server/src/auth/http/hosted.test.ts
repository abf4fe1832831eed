import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../app-harness.js';
import { serverMigrations } from '../../db/migrations/index.js';
import { requireUser, type AuthEnv } from '../../platform/http/require-auth.js';
import { createAuthRuntime } from '../embedded.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

// "Hosted Supabase" here is this project's own GoTrue-compatible service on another port: the
// second app must send the browser there and check tokens against its JWKS.
describe('with SUPABASE_URL set, the server uses the hosted auth', () => {
  let hostedDb: Db;
  let hosted: AuthTestServer;
  let localDb: Db;
  let test: TestApp;
  let app: TestApp['app'];
  let protectedApp: Hono<AuthEnv>;

  beforeAll(async () => {
    const target = testDbTargets()[0];
    if (!target) throw new Error('no test database');
    hostedDb = await target.open(serverMigrations());
    hosted = await startAuthTestServer(hostedDb);
    localDb = await target.open(serverMigrations());
    let runtime!: ReturnType<typeof createAuthRuntime>;
    test = await startTestApp({
      db: localDb,
      prepare: (dir) => writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>'),
      env: { SUPABASE_URL: hosted.url, SUPABASE_ANON_KEY: hosted.anonKey },
      deps: ({ config, secrets }) => {
        runtime = createAuthRuntime({ config, db: localDb, secrets });
        return {
          verifyAccessToken: runtime.verifyAccessToken,
          auth: runtime.service,
          authAnonKey: runtime.anonKey,
        };
      },
    });
    expect(runtime.service).toBeNull();
    app = test.app;
    protectedApp = new Hono<AuthEnv>().get('/whoami', requireUser(runtime.verifyAccessToken), (c) =>
      c.json({ email: c.get('user').email }),
    );
  });
  afterAll(async () => {
    await hosted.close();
    await hostedDb.close();
    await test.close();
    await localDb.close();
  });

  it('gives the browser the hosted URL and anon key, and serves no auth or outbox of its own', async () => {
    const config = await (await app.request('/config.json')).json();
    expect(config.auth).toEqual({ url: hosted.url, anonKey: hosted.anonKey, embedded: false });
    expect(await (await app.request('/auth/v1/settings')).text()).not.toContain('external');
    expect(await (await app.request('/_mail')).text()).not.toContain('Outbox');
  });

  it("accepts the hosted service's access tokens on protected routes and refuses forged ones", async () => {
    const admin = hosted.client('service').auth.admin;
    await admin.createUser({ email: 'hosted@example.com', password: 'hosted pw 1', email_confirm: true });
    const { data } = await hosted.client().auth.signInWithPassword({
      email: 'hosted@example.com',
      password: 'hosted pw 1',
    });
    const token = data.session?.access_token as string;
    const ok = await protectedApp.request('/whoami', { headers: { Authorization: `Bearer ${token}` } });
    expect(await ok.json()).toEqual({ email: 'hosted@example.com' });
    const forged = await protectedApp.request('/whoami', {
      headers: { Authorization: `Bearer ${token.slice(0, -6)}AAAAAA` },
    });
    expect(forged.status).toBe(401);
  });
});
