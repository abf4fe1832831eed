// Several real server processes on one PostgreSQL: a throwaway cluster (initdb, run as the postgres
// user on a free port). Runs as root only (CI does); skipped elsewhere with the reason printed.
// Here what they share (keys, sessions, calls, the limiter); their failures: instances-failures.test.ts.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { compiledEntry } from './testing/compiled-server.js';
import type { InstanceProcess } from './testing/instance-process.js';
import { ADMIN, anonKeyOf, authClient, get, untilReady, useInstances } from './testing/instances-harness.js';
import { throwawayPostgresUnavailable } from './testing/throwaway-postgres.js';

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[instances test] skipped: ${unavailable}`);

describe.skipIf(unavailable)('several instances on one PostgreSQL', () => {
  const { instances, cluster, rows } = useInstances();

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
    const printed = spawnSync(process.execPath, compiledEntry('keys-cli'), {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: cluster.url,
        DATA_DIR: keysDir,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
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
});
