/**
 * `npm run bench:instances`: one instance, then two, on one PostgreSQL, over real HTTP (loopback,
 * keep-alive), each instance a real server process (the compiled server, `npm run serve`'s command):
 * - password sign-ins per second (argon2id verify + session + JWT), 8 clients spread over the instances;
 * - static-page requests per second (GET / , the prerendered landing page), 32 clients.
 * PostgreSQL: a throwaway cluster (initdb, as root), else BENCH_DATABASE_URL (a database it may fill).
 * The site is apps/site/dist when built (`npm run build`), else a one-line page (said in the output).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { compileServer } from '../src/testing/compiled-server.js';
import { startInstance, type InstanceProcess } from '../src/testing/instance-process.js';
import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../src/testing/throwaway-postgres.js';

const ADMIN = { email: 'bench@example.com', password: 'bench password 1' };
const DURATION_MS = 6_000;
const root = path.resolve(import.meta.dirname, '../../..');

/** Runs `clients` loops of `fn` for DURATION_MS; a call answered otherwise than 200 stops the run. */
async function throughput(clients: number, fn: (client: number) => Promise<boolean>): Promise<number> {
  const end = performance.now() + DURATION_MS;
  let ok = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < end) {
        if (!(await fn(client))) throw new Error('a request was not answered 200');
        ok++;
      }
    }),
  );
  return ok / (DURATION_MS / 1000);
}

async function freshDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function siteDir(): { dir: string; note: string; cleanup: () => void } {
  const built = path.join(root, 'apps/site/dist');
  if (existsSync(path.join(built, 'index.html')))
    return { dir: built, note: 'the built site (apps/site/dist)', cleanup: () => undefined };
  {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engage-bench-site-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Engage</title><p>bench</p>');
    return {
      dir,
      note: 'a one-line page (run `npm run build` to measure the real one)',
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
}

async function measure(databaseUrl: string, count: number, site: string) {
  const env = {
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://engage.bench.test',
    ADMIN_EMAILS: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT_TOKEN: '0',
    SITE_DIR: site,
    LOG_LEVEL: 'error',
  };
  // The first creates the schema; the others then start on it, as a scale-out would.
  const instances: InstanceProcess[] = [await startInstance(env)];
  for (let i = 1; i < count; i++) instances.push(await startInstance(env));
  try {
    const config = (await (await fetch(`${instances[0]!.url}/config.json`)).json()) as {
      auth: { anonKey: string };
    };
    const body = JSON.stringify(ADMIN);
    const headers = { apikey: config.auth.anonKey, 'Content-Type': 'application/json' };
    let turn = 0;
    const next = () => instances[turn++ % instances.length]!.url;
    const signIn = async () => {
      const res = await fetch(`${next()}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers,
        body,
      });
      await res.arrayBuffer();
      return res.status === 200;
    };
    const page = async () => {
      const res = await fetch(`${next()}/`, { headers: { Accept: 'text/html' } });
      await res.arrayBuffer();
      return res.status === 200;
    };
    await throughput(4, signIn); // warm-up: JIT, pool connections, argon2 threads
    const signIns = await throughput(8, signIn);
    await throughput(8, page);
    const pages = await throughput(32, page);
    return { signIns, pages };
  } finally {
    await Promise.all(instances.map((i) => i.dispose()));
  }
}

async function main() {
  // Each instance is the compiled server, as `npm start` and production run it.
  compileServer();
  let cluster: ThrowawayPostgres | null = null;
  let baseUrl = process.env.BENCH_DATABASE_URL;
  if (!baseUrl) {
    const unavailable = throwawayPostgresUnavailable();
    if (unavailable) {
      console.error(
        `No PostgreSQL to use: ${unavailable}. Set BENCH_DATABASE_URL to a database it may fill.`,
      );
      process.exit(1);
    }
    cluster = await startThrowawayPostgres();
    baseUrl = cluster.url;
  }
  const site = siteDir();
  try {
    const rows: string[] = [];
    for (const count of [1, 2]) {
      const url = await freshDatabase(baseUrl, `engage_bench_${count}`);
      const { signIns, pages } = await measure(url, count, site.dir);
      rows.push(`| ${count} | ${signIns.toFixed(0)} | ${pages.toFixed(0)} |`);
    }
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(
      [
        `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, Node ${process.version}, ` +
          `load average ${os.loadavg()[0]?.toFixed(1)} at the end;`,
        `PostgreSQL ${cluster ? 'throwaway cluster on loopback' : 'at BENCH_DATABASE_URL'}; static page: ${site.note}.`,
        '',
        '| instances | sign-ins/s (8 clients) | static page requests/s (32 clients) |',
        '|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    site.cleanup();
    cluster?.destroy();
  }
}

await main();
