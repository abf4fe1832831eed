import type { AddressInfo } from 'node:net';
import { emulatorMigrations } from '@engage/vapi-emulator';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { createApp } from './app.js';
import { bootstrapAdmins, bootstrapOperators } from './auth/bootstrap.js';
import { createAuthRuntime } from './auth/embedded.js';
import { startBackups, type Backups } from './backup/runtime.js';
import type { Config } from './config.js';
import { migrate } from './db/migrate.js';
import { serverMigrations } from './db/migrations/index.js';
import { lockDataDir, openDatabase, prepareDataDir } from './db/open.js';
import type { Db, Migration } from './db/types.js';
import type { Logger } from './lib/logger.js';
import { createPublicOrigin } from './lib/public-origin.js';
import { openSecretStore } from './lib/secrets.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  close(): Promise<void>;
}

/** Every migration the server applies, in order: the server's modules, then the emulator's. */
export function allMigrations(): Migration[] {
  return [...serverMigrations(), ...emulatorMigrations];
}

/** Opens storage, applies migrations, composes the app and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  prepareDataDir(config.dataDir, logger); // the secret store lives here even with DATABASE_URL
  const unlock = config.DATABASE_URL ? () => undefined : lockDataDir(config.dataDir);
  let db: Db;
  try {
    db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL });
  } catch (error) {
    unlock();
    throw error;
  }
  let backups: Backups | undefined;
  try {
    await migrate(db, allMigrations());
    const secrets = openSecretStore(config.dataDir);
    backups = await startBackups(config, db, logger);
    // Links and token issuers: PUBLIC_URL or this listener's address, never a request header.
    const publicOrigin = createPublicOrigin(config);
    const auth = createAuthRuntime({ config, db, secrets, publicOrigin: publicOrigin.get });
    if (auth.service) {
      const boot = await bootstrapAdmins(db, config.ADMIN_EMAILS, config.ADMIN_PASSWORD);
      if (boot.created.length) logger.info('created the bootstrap admin accounts', { emails: boot.created });
      const operators = await bootstrapOperators(db, config.OPERATOR_EMAILS, config.ADMIN_EMAILS);
      if (operators.length) logger.info('gave the operator role (OPERATOR_EMAILS)', { emails: operators });
      // Printed once, to the terminal only (never to the structured log): the operator's first sign-in.
      if (boot.generatedPassword)
        console.warn(
          `Admin account(s) ${boot.created.join(', ')} created with the password: ${boot.generatedPassword}\n` +
            'Sign in and change it, or set ADMIN_PASSWORD before the first start.',
        );
    }
    // Call rooms are WebSockets: the adapter passes each upgrade request through `root`, i.e. the app.
    const root = new Hono();
    const nodeWs = createNodeWebSocket({ app: root });
    // ws buffers a whole message before handing it over (100 MiB by default); room frames are 20–100 ms
    // of audio, so anything over 256 KiB is refused by ws itself (close 1009) before it is held.
    nodeWs.wss.options.maxPayload = 256 * 1024;
    const app = createApp({
      publicOrigin: publicOrigin.get,
      upgradeWebSocket: nodeWs.upgradeWebSocket,
      config,
      db,
      logger,
      secrets,
      verifyAccessToken: auth.verifyAccessToken,
      auth: auth.service,
      authAnonKey: auth.anonKey,
      backupStatus: backups.status,
    });

    root.route('/', app);
    const server: ServerType = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
      s.once('error', reject);
    });
    nodeWs.injectWebSocket(server);
    const port = (server.address() as AddressInfo).port;
    publicOrigin.listening(port);
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const url = `http://${host}:${port}`;

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          // Open call rooms are closed (1001, going away) so they do not hold close() open.
          for (const socket of nodeWs.wss.clients) socket.close(1001, 'server shutting down');
          setTimeout(() => nodeWs.wss.clients.forEach((socket) => socket.terminate()), 1000).unref();
          server.close(() => resolve());
          // Idle keep-alive sockets would hold close() open; active requests get to finish.
          (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
        });
        await backups?.close();
        await db.close();
        unlock();
      })());
    return { url, port, db, close };
  } catch (error) {
    await backups?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    unlock();
    throw error;
  }
}
