// The one way a test builds the whole server in process: a fresh data directory, an in-memory
// PGlite with every migration, the configuration from `env`, and createApp over them. Tests that
// need a listening socket or the embedded auth use the harnesses beside their feature, built on this.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openPglite, type Db } from '@engage/db';
import type { Hono } from 'hono';
import { createApp, type AppDeps } from './app.js';
import { parseConfig, type Config } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { openSecretStore } from './platform/secrets.js';
import { allMigrations } from './startup.js';

export interface TestApp {
  app: Hono;
  db: Db;
  config: Config;
  /** The data directory (also the site directory unless `env` names another). */
  dir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables over the defaults (DATA_DIR and SITE_DIR are the fresh directory). */
  env?: Record<string, string>;
  /** Called with the fresh directory before the configuration is read (a built site, say). */
  prepare?: (dir: string) => void;
  /** createApp's other dependencies: a token check, a logger, the auth service… */
  deps?: Partial<Omit<AppDeps, 'config' | 'db'>>;
  /** False: the database starts empty (readiness before migrations). */
  migrated?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { env = {}, prepare, deps = {}, migrated = true } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-app-'));
  prepare?.(dir);
  const db = await openPglite();
  if (migrated) await migrate(db, allMigrations());
  const config = parseConfig({ DATA_DIR: dir, SITE_DIR: dir, ...env });
  const app = createApp({
    logger: createLogger('silent'),
    secrets: openSecretStore(dir),
    verifyAccessToken: async () => null,
    ...deps,
    config,
    db,
  });
  return {
    app,
    db,
    config,
    dir,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
