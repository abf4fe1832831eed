import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of its own for tests and benchmarks that stop and start the database: made
 * with `initdb` in a temporary directory, run as the `postgres` user on a free port, deleted after.
 * It never touches the machine's shared cluster (127.0.0.1:5432).
 */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, local only). */
  url: string;
  /** Starts the server (again), waiting until it accepts connections. */
  start(): void;
  /** Stops the server (fast shutdown: open connections are ended). */
  stop(): void;
  /** Stops the server and deletes the cluster. */
  destroy(): void;
}

/** A PostgreSQL program from PATH, else from the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresProgram(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const program = path.join(base, v, 'bin', name);
    if (existsSync(program)) return program;
  }
  return null;
}

/** Why a throwaway cluster cannot be made here, or null when it can (initdb present, running as root). */
export function throwawayPostgresUnavailable(): string | null {
  if (!findPostgresProgram('initdb') || !findPostgresProgram('pg_ctl'))
    return 'initdb/pg_ctl not found (on PATH or under /usr/lib/postgresql/*/bin)';
  if (process.getuid?.() !== 0) return 'not running as root (a throwaway cluster runs as the postgres user)';
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'no postgres user on this machine';
  return null;
}

/** A TCP port nobody listens on just now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const asPostgres = (program: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', program, ...args], { stdio: 'pipe', timeout: 60_000 });

/** Makes and starts a throwaway cluster. Call `throwawayPostgresUnavailable()` first. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const initdb = findPostgresProgram('initdb') as string;
  const pgCtl = findPostgresProgram('pg_ctl') as string;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-pg-'));
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  asPostgres(initdb, ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
  // Local TCP only, the socket in the cluster's own directory; no fsync: nothing here must survive.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let running = false;
  const start = () => {
    asPostgres(pgCtl, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = () => {
    if (!running) return;
    asPostgres(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
