// Several real server processes on one PostgreSQL: a throwaway cluster (initdb, run as the postgres
// user on a free port), so the test may stop and restart it. Runs as root only (CI does); skipped
// elsewhere with the reason printed.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startInstance, type InstanceProcess } from './testing/instance-process.js';
import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from './testing/throwaway-postgres.js';

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[instances test] skipped: ${unavailable}`);

const ADMIN = { email: 'boss@example.com', password: 'instances-test-password-1' };
/** One origin for every instance, as behind a load balancer: access tokens name it as their issuer. */
const PUBLIC_URL = 'http://engage.example.test';

let cluster: ThrowawayPostgres;
let instances: InstanceProcess[] = [];

const get = (instance: InstanceProcess, path: string, init?: RequestInit) =>
  fetch(`${instance.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });

async function anonKeyOf(instance: InstanceProcess): Promise<string> {
  const config = (await (await get(instance, '/config.json')).json()) as { auth: { anonKey: string } };
  return config.auth.anonKey;
}

function authClient(instance: InstanceProcess, anonKey: string) {
  return createClient(instance.url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

async function signIn(instance: InstanceProcess, anonKey: string) {
  return fetch(`${instance.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
    signal: AbortSignal.timeout(10_000),
  });
}

/** Asks `/readyz` until it answers `status` (each answer within 10 s), up to `withinMs`. */
async function untilReady(instance: InstanceProcess, status: number, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const res = await get(instance, '/readyz').catch(() => null);
    if (res?.status === status) return;
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}:\n${instance.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function rows<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(unavailable)('several instances on one PostgreSQL', () => {
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    // Three at once on an empty database: migrations, keys and the bootstrap admin race.
    instances = await Promise.all(
      [1, 2, 3].map(() =>
        startInstance({
          DATABASE_URL: cluster.url,
          PUBLIC_URL,
          ADMIN_EMAILS: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          // The per-address request limit off: the guesses below meet the per-account limit alone,
          // and the other tests' sign-ins from this one address are not refused.
          AUTH_RATE_LIMIT_TOKEN: '0',
        }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.dispose()));
    cluster?.destroy();
  });

  it('all become ready on an empty database, with one bootstrap admin and one set of keys', async () => {
    for (const instance of instances) await untilReady(instance, 200);
    const users = await rows<{ email: string }>('select email from auth_users');
    expect(users.map((u) => u.email)).toEqual([ADMIN.email]);
    const anonKeys = await Promise.all(instances.map(anonKeyOf));
    expect(new Set(anonKeys).size).toBe(1);
    const kids = await Promise.all(
      instances.map(async (i) => {
        const jwks = (await (await get(i, '/auth/v1/.well-known/jwks.json')).json()) as {
          keys: { kid: string }[];
        };
        return jwks.keys.map((k) => k.kid).join();
      }),
    );
    expect(new Set(kids).size).toBe(1);
    // `npm run keys` with DATABASE_URL prints the values the instances share.
    const keysDir = mkdtempSync(path.join(tmpdir(), 'engage-keys-'));
    const printed = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'apps/server/src/keys-cli.ts'],
      {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: cluster.url,
          DATA_DIR: keysDir,
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    rmSync(keysDir, { recursive: true, force: true });
    expect(printed.status, printed.stderr).toBe(0);
    const keys = JSON.parse(printed.stdout) as Record<string, string>;
    expect(keys.authAnonKey).toBe(anonKeys[0]);
    const stored = await rows<{ name: string; value: string }>('select name, value from app_secrets');
    expect(Object.fromEntries(stored.map((r) => [r.name, r.value]))).toMatchObject(keys);
    expect(printed.stdout).not.toContain('"d"'); // never the private signing key
  });

  it('honours a session from one instance on the others, and refreshes its token on another', async () => {
    const anonKey = await anonKeyOf(instances[0]!);
    const first = authClient(instances[0]!, anonKey);
    const { data, error } = await first.auth.signInWithPassword(ADMIN);
    expect(error).toBeNull();
    const session = data.session!;
    for (const other of instances.slice(1)) {
      const { data: user, error: userError } = await authClient(other, anonKey).auth.getUser(
        session.access_token,
      );
      expect(userError).toBeNull();
      expect(user.user?.email).toBe(ADMIN.email);
      const admin = await get(other, '/api/admin/users', {
        headers: { Authorization: `Bearer ${session.access_token}` },
      });
      expect(admin.status).toBe(200);
    }
    const refreshed = await authClient(instances[1]!, anonKey).auth.refreshSession({
      refresh_token: session.refresh_token,
    });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.access_token).toBeTruthy();
    const third = await authClient(instances[2]!, anonKey).auth.getUser(refreshed.data.session!.access_token);
    expect(third.data.user?.email).toBe(ADMIN.email);
  });

  it('joins a web call created on one instance through another', async () => {
    const config = (await (await get(instances[0]!, '/config.json')).json()) as {
      provider: { publicKey: string };
    };
    const created = await get(instances[0]!, '/provider/call/web', {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.provider.publicKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ assistantId: 'asst_index' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const other = new URL(instances[1]!.url);
    const socket = new WebSocket(`ws://${other.host}/provider/rooms/${id}`);
    // The room, opened from the call's row on this other instance, starts the call.
    const started = await new Promise<unknown>((resolve, reject) => {
      socket.on('message', (data, binary) => {
        const message = binary ? null : (JSON.parse(String(data)) as { type?: string });
        if (message?.type === 'status-update') resolve(message);
      });
      socket.once('close', (code, reason) => reject(new Error(`closed ${code} ${String(reason)}`)));
      socket.once('error', reject);
    });
    expect(started).toMatchObject({ type: 'status-update', status: 'in-progress' });
    // The call is held by that one connection on every instance: a second one elsewhere is refused.
    const second = new WebSocket(`ws://${new URL(instances[2]!.url).host}/provider/rooms/${id}`);
    const [code] = (await once(second, 'close')) as [number];
    expect(code).toBe(4409);
    socket.close();
  });

  // The shared limiter's PostgreSQL store: without it each process counts alone and the spread
  // guesses get three times through.
  it('lets 90 wrong sign-ins spread over the three through no more than one instance alone', async () => {
    const anonKey = await anonKeyOf(instances[0]!);
    const [secret] = await rows<{ value: string }>(
      "select value from app_secrets where name = 'authServiceRoleKey'",
    );
    const serviceKey = secret!.value;
    const service = {
      apikey: serviceKey,
      Authorization: `Bearer ${serviceKey}`,
      'Content-Type': 'application/json',
    };
    for (const email of ['alone@example.com', 'spread@example.com']) {
      const created = await get(instances[0]!, '/auth/v1/admin/users', {
        method: 'POST',
        headers: service,
        body: JSON.stringify({ email, password: ADMIN.password, email_confirm: true }),
      });
      expect(created.status).toBe(200);
    }
    const guesses = async (email: string, at: (i: number) => InstanceProcess) => {
      let through = 0;
      for (let i = 0; i < 90; i++) {
        const res = await fetch(`${at(i).url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: anonKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: `wrong guess ${i}` }),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.status !== 429) through++;
      }
      return through;
    };
    const alone = await guesses('alone@example.com', () => instances[0]!);
    const spread = await guesses('spread@example.com', (i) => instances[i % 3]!);
    expect(alone).toBeLessThan(90);
    expect(spread).toBeLessThanOrEqual(alone);
  });

  it('keeps serving on the others when one is killed', async () => {
    const killed = instances[2]!;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const anonKey = await anonKeyOf(instances[0]!);
    for (const instance of instances.slice(0, 2)) {
      expect((await get(instance, '/readyz')).status).toBe(200);
      expect((await signIn(instance, anonKey)).status).toBe(200);
    }
  });

  it('answers 503 while PostgreSQL is down and recovers without a restart', async () => {
    const [a, b] = instances as [InstanceProcess, InstanceProcess];
    const anonKey = await anonKeyOf(a);
    const pids = [a.child.pid, b.child.pid];
    cluster.stop();
    const outage = Date.now();
    try {
      // Each answer comes within 10 s (the requests abort past it and the test fails).
      const refused = await signIn(a, anonKey);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: 'database_unavailable' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const instance of [a, b]) expect((await get(instance, '/readyz')).status).toBe(503);
      expect((await get(b, '/healthz')).status).toBe(200); // liveness: no restart wanted
      // The outage lasts 8 s, as a database restart or failover would.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8_000 - (Date.now() - outage))));
    } finally {
      cluster.start();
    }
    for (const instance of [a, b]) {
      await untilReady(instance, 200);
      expect((await signIn(instance, anonKey)).status).toBe(200);
    }
    expect([a.child.pid, b.child.pid]).toEqual(pids);
    expect(a.child.exitCode ?? b.child.exitCode).toBeNull();
  }, 60_000);

  it('stops on SIGTERM: the request in flight is answered, call rooms close with 1001, exit 0', async () => {
    const instance = instances[1]!;
    const anonKey = await anonKeyOf(instance);
    const config = (await (await get(instance, '/config.json')).json()) as {
      provider: { publicKey: string };
    };
    const created = await get(instance, '/provider/call/web', {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.provider.publicKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ assistantId: 'asst_index' }),
    });
    const { id } = (await created.json()) as { id: string };
    const room = new WebSocket(`${instance.url.replace(/^http/, 'ws')}/provider/rooms/${id}`);
    await new Promise((resolve) => room.once('message', resolve));
    const roomClosed = new Promise<number>((resolve) => room.once('close', resolve));
    // A sign-in whose body is still being sent when the signal comes.
    const body = JSON.stringify(ADMIN);
    const { port } = new URL(instance.url);
    const inFlight = connect(Number(port), '127.0.0.1');
    await once(inFlight, 'connect');
    let answer = '';
    inFlight.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    inFlight.write(
      `POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\napikey: ${anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    // Answered after the bytes above were read: the server has the request's head by now.
    expect((await get(instance, '/healthz')).status).toBe(200);
    instance.child.kill('SIGTERM');
    expect(await roomClosed).toBe(1001);
    inFlight.write(body.slice(10)); // not end(): a half-closed connection aborts its request
    await once(inFlight, 'close');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await instance.exited).toBe(0);
  });
});
