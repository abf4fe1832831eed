// Test support for instances*.test.ts: three real server processes on one throwaway PostgreSQL
// cluster, started together on an empty database, and the requests the tests make of them.
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { startInstance, type InstanceProcess } from './instance-process.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.js';

export const ADMIN = { email: 'boss@example.com', password: 'instances-test-password-1' };
/** One origin for every instance, as behind a load balancer: access tokens name it as their issuer. */
export const PUBLIC_URL = 'http://engage.example.test';

export const get = (instance: InstanceProcess, path: string, init?: RequestInit) =>
  fetch(`${instance.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });

export async function anonKeyOf(instance: InstanceProcess): Promise<string> {
  const config = (await (await get(instance, '/config.json')).json()) as { auth: { anonKey: string } };
  return config.auth.anonKey;
}

export function authClient(instance: InstanceProcess, anonKey: string) {
  return createClient(instance.url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export async function signIn(instance: InstanceProcess, anonKey: string) {
  return fetch(`${instance.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
    signal: AbortSignal.timeout(10_000),
  });
}

/** Asks `/readyz` until it answers `status` (each answer within 10 s), up to `withinMs`. */
export async function untilReady(
  instance: InstanceProcess,
  status: number,
  withinMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const res = await get(instance, '/readyz').catch(() => null);
    if (res?.status === status) return;
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}:\n${instance.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Registers the hooks: the cluster and three instances before the suite, stopped after. `instances`
 * is filled in place; `cluster` and `rows` are usable once beforeAll ran.
 */
export function useInstances() {
  let openCluster: ThrowawayPostgres | undefined;
  const instances: InstanceProcess[] = [];
  const cluster = {
    get url() {
      return (openCluster as ThrowawayPostgres).url;
    },
    stop: () => openCluster?.stop(),
    start: () => openCluster?.start(),
  };

  beforeAll(async () => {
    openCluster = await startThrowawayPostgres();
    // Three at once on an empty database: migrations, keys and the bootstrap admin race.
    instances.push(
      ...(await Promise.all(
        [1, 2, 3].map(() =>
          startInstance({
            DATABASE_URL: cluster.url,
            PUBLIC_URL,
            ADMIN_EMAILS: ADMIN.email,
            ADMIN_PASSWORD: ADMIN.password,
            // The per-address request limit off: the limiter test's guesses meet the per-account
            // limit alone, and the other tests' sign-ins from this one address are not refused.
            AUTH_RATE_LIMIT_TOKEN: '0',
          }),
        ),
      )),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.dispose()));
    openCluster?.destroy();
  });

  async function rows<T>(sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }

  return { instances, cluster, rows };
}
