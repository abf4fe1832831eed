// The one way a test builds the whole server: a fresh data directory, a migrated in-memory PGlite
// (or the test's own database), the configuration from `env`, and createApp over them; `listen()`
// puts it on a free port when a test needs a real socket. Feature harnesses build on it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openPglite, type Db } from '@engage/db';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { createApp, type AppDeps } from './app.js';
import { parseConfig, type Config } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { openSecretStore, type SecretStore } from './platform/secrets.js';
import { allMigrations } from './startup.js';

type OtherDeps = Partial<Omit<AppDeps, 'config' | 'db' | 'secrets'>>;

export interface TestApp {
  app: Hono;
  db: Db;
  config: Config;
  secrets: SecretStore;
  /** The data directory (also the site directory unless `env` names another). */
  dir: string;
  /** Serves the app on a free loopback port until `close()`. */
  listen(): Promise<{ url: string; server: ServerType }>;
  /** Stops the server if listening, closes the database it opened, removes the directory. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables over the defaults (DATA_DIR and SITE_DIR are the fresh directory). */
  env?: Record<string, string>;
  /** Called with the fresh directory before the configuration is read (a built site, say). */
  prepare?: (dir: string) => void;
  /** The test's own database (a PostgreSQL target, say), migrated by the test and closed by it. */
  db?: Db;
  /** False: the harness's database starts empty (readiness before migrations). */
  migrated?: boolean;
  /** createApp's other dependencies, or a function of the configuration that builds them (an auth runtime). */
  deps?: OtherDeps | ((built: { config: Config; db: Db; secrets: SecretStore; dir: string }) => OtherDeps);
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { env = {}, prepare, migrated = true } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-app-'));
  prepare?.(dir);
  const ownDb = !options.db;
  const db = options.db ?? (await openPglite());
  if (ownDb && migrated) await migrate(db, allMigrations());
  const config = parseConfig({ DATA_DIR: dir, SITE_DIR: dir, ...env });
  const secrets = openSecretStore(dir);
  const deps = typeof options.deps === 'function' ? options.deps({ config, db, secrets, dir }) : options.deps;
  const app = createApp({
    logger: createLogger('silent'),
    verifyAccessToken: async () => null,
    ...deps,
    config,
    db,
    secrets,
  });
  let server: ServerType | undefined;
  return {
    app,
    db,
    config,
    secrets,
    dir,
    async listen() {
      server ??= await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
    },
    async close() {
      if (server)
        await new Promise<void>((resolve) => {
          server?.close(() => resolve());
          (server as { closeIdleConnections?: () => void } | undefined)?.closeIdleConnections?.();
        });
      if (ownDb) await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
