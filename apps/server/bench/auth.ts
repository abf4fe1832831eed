/**
 * `npm run bench:auth`: the embedded auth over real HTTP (loopback, keep-alive) on the embedded
 * database (in-memory PGlite), and on PostgreSQL too when TEST_DATABASE_URL is set.
 * - password sign-ins per second (POST /token?grant_type=password, argon2id verify + session + JWT),
 *   with 1 and with 4 concurrent clients, rate limits off;
 * - p50/p95 latency of /token (password grant), /token (refresh grant) and GET /user, sequential.
 * Writes its section of docs/benchmarks.md (between the auth markers) and prints it.
 */
import os from 'node:os';
import { writeNamedSection } from '@engage/bench-doc';
import { testDbTargets } from '@engage/db/testing';
import { startAuthTestServer, type AuthTestServer } from '../src/auth/http/server-harness.js';
import { createUser } from '../src/auth/user-store.js';
import { serverMigrations } from '../src/db/migrations/index.js';

const USERS = 20;
const PASSWORD = 'bench password 1';
const THROUGHPUT_MS = 8_000;

interface Timing {
  p50: number;
  p95: number;
  n: number;
}

function percentiles(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { p50: at(0.5), p95: at(0.95), n: sorted.length };
}

async function timed(runs: number, warmup: number, fn: (i: number) => Promise<void>): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

function api(srv: AuthTestServer) {
  const headers = { apikey: srv.anonKey, 'Content-Type': 'application/json' };
  return {
    async signIn(i: number) {
      const res = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `bench${i % USERS}@example.com`, password: PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { access_token: string; refresh_token: string };
    },
    async refresh(token: string) {
      const res = await fetch(`${srv.url}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ refresh_token: token }),
      });
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}`);
      return ((await res.json()) as { refresh_token: string }).refresh_token;
    },
    async user(token: string) {
      const res = await fetch(`${srv.url}/auth/v1/user`, {
        headers: { apikey: srv.anonKey, Authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`/user answered ${res.status}`);
      await res.arrayBuffer();
    },
  };
}

async function throughput(signIn: (i: number) => Promise<unknown>, concurrency: number): Promise<number> {
  let done = 0;
  const end = performance.now() + THROUGHPUT_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = w; performance.now() < end; i += concurrency) {
        await signIn(i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

async function main() {
  const sections: string[] = [];
  for (const target of testDbTargets()) {
    const db = await target.open(serverMigrations());
    const srv = await startAuthTestServer(db);
    try {
      for (let i = 0; i < USERS; i++)
        await createUser(db, { email: `bench${i}@example.com`, password: PASSWORD, emailConfirm: true });
      const a = api(srv);
      process.stdout.write(`${target.name}: sign-in throughput… `);
      const one = await throughput((i) => a.signIn(i), 1);
      const four = await throughput((i) => a.signIn(i), 4);
      console.log(`${one.toFixed(1)}/s and ${four.toFixed(1)}/s`);
      const token = await timed(200, 20, async (i) => void (await a.signIn(i)));
      const session = await a.signIn(0);
      let refreshToken = session.refresh_token;
      const refresh = await timed(500, 20, async () => {
        refreshToken = await a.refresh(refreshToken);
      });
      const user = await timed(1000, 50, () => a.user(session.access_token));
      const engine =
        target.name === 'pglite' ? 'PGlite (in memory, the embedded default)' : 'PostgreSQL (loopback)';
      sections.push(
        [
          `### ${engine}`,
          '',
          `Password sign-ins per second: **${one.toFixed(1)}** with one client, **${four.toFixed(1)}** with four concurrent clients (${THROUGHPUT_MS / 1000} s each).`,
          '',
          '| request (sequential, after warm-up) | p50 | p95 | runs |',
          '| --- | --- | --- | --- |',
          `| POST /token?grant_type=password | ${ms(token.p50)} | ${ms(token.p95)} | ${token.n} |`,
          `| POST /token?grant_type=refresh_token | ${ms(refresh.p50)} | ${ms(refresh.p95)} | ${refresh.n} |`,
          `| GET /user | ${ms(user.p50)} | ${ms(user.p95)} | ${user.n} |`,
        ].join('\n'),
      );
    } finally {
      await srv.close();
      await db.close();
    }
  }
  const load = os.loadavg()[0]?.toFixed(1);
  const section = [
    '## Embedded auth (`npm run bench:auth`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the end. ` +
      'Real HTTP on loopback with keep-alive, through the server’s own app (rate limits off). A sign-in is an argon2id ' +
      'verify (19 MiB, t=2: the cost that dominates), a session row, a refresh token and an ES256 JWT; ' +
      '/user verifies the JWT and reads the session and the user.',
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
  writeNamedSection('auth', section);
  console.log(section);
}

await main();
