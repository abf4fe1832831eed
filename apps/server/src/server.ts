import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { createVapiClient } from '@engage/vapi-client';
import { scheduleConversationRetention, type ConversationRetention } from '@engage/vapi-emulator';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { createApp } from './app.js';
import { scheduleAnonymousRetention, type AnonymousRetention } from './auth/anonymous-retention.js';
import { createAuthRuntime } from './auth/embedded.js';
import { startBackups, type Backups } from './backup/runtime.js';
import { limitStoreFor } from './db/limit-store.js';
import { lockDataDir, openDatabase, prepareDataDir } from './db/open.js';
import type { Config } from './platform/config.js';
import { trackConnections } from './platform/http-drain.js';
import type { Logger } from './platform/logger.js';
import { createPublicOrigin } from './platform/public-origin.js';
import type { SecretStore } from './platform/secrets.js';
import { EMBEDDED_PROVIDER_URL, emulatorKeys } from './provider/emulator-keys.js';
import { seedStarterDocuments } from './provider/starter-documents.js';
import { prepareStorage, type GeneratedAdmin } from './startup.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  /** The generated keys this server uses (shared through the database with DATABASE_URL). */
  secrets: SecretStore;
  /** The admin accounts this start created with a generated password (startup.ts), else null. */
  generatedAdmin: GeneratedAdmin | null;
  /**
   * Stops: no new connections, WebSockets closed with 1001, requests in flight get `drainMs` (10 s by
   * default) to finish, then the database is closed.
   */
  close(drainMs?: number): Promise<void>;
}

/** How long a stopping server lets requests in flight finish. */
const DRAIN_MS = 10_000;

export { allMigrations } from './startup.js';

/** Opens storage, applies migrations, composes the app and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  // With DATABASE_URL nothing in it is needed (keys are in the database); it is still made private.
  prepareDataDir(config.dataDir, logger);
  const unlock = config.DATABASE_URL ? () => undefined : lockDataDir(config.dataDir);
  let db: Db;
  try {
    db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL });
  } catch (error) {
    unlock();
    throw error;
  }
  let backups: Backups | undefined;
  let retention: ConversationRetention | undefined;
  let anonymousRetention: AnonymousRetention | undefined;
  try {
    const { secrets, generatedAdmin } = await prepareStorage(config, db, logger);
    backups = await startBackups(config, db, logger);
    // The embedded provider's calls and chats older than EMULATOR_CONVERSATION_DAYS: now, then hourly.
    if (config.embeddedProvider)
      retention = scheduleConversationRetention({ db, days: config.EMULATOR_CONVERSATION_DAYS, logger });
    // Links and token issuers: PUBLIC_URL or this listener's address, never a request header.
    const publicOrigin = createPublicOrigin(config);
    // Every limit counts in one store: PostgreSQL's with DATABASE_URL, so limits hold across instances.
    const limitStore = limitStoreFor(db);
    const auth = createAuthRuntime({ config, db, secrets, publicOrigin: publicOrigin.get, limitStore });
    // Anonymous users past AUTH_ANONYMOUS_RETENTION_DAYS: now, then hourly, sign-ins or not.
    if (auth.service && config.AUTH_ANONYMOUS)
      anonymousRetention = scheduleAnonymousRetention({ prune: auth.service.pruneAnonymousUsers, logger });
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
      limitStore,
      backupStatus: backups.status,
    });

    root.route('/', app);
    const server: ServerType = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
      s.once('error', reject);
    });
    nodeWs.injectWebSocket(server);
    const connections = trackConnections(server as Server);
    const port = (server.address() as AddressInfo).port;
    publicOrigin.listening(port);
    // The embedded provider's landing assistants answer from a starter document until the owner
    // gives them their own (once per assistant; provider/starter-documents.ts).
    if (config.embeddedProvider)
      await seedStarterDocuments({
        db,
        logger,
        config,
        client: createVapiClient({
          baseUrl: new URL(new URL(EMBEDDED_PROVIDER_URL).pathname, publicOrigin.get()).href,
          token: emulatorKeys(config, secrets).privateKey,
          fetch: async (input, init) => app.fetch(new Request(input, init)),
        }),
      });
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const url = `http://${host}:${port}`;

    let closing: Promise<void> | undefined;
    const close = (drainMs = DRAIN_MS) =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          // No new connections from here on; requests already running get to finish.
          server.close(() => resolve());
          // Open call rooms are closed (1001, going away) so they do not hold close() open.
          for (const socket of nodeWs.wss.clients) socket.close(1001, 'server shutting down');
          setTimeout(() => nodeWs.wss.clients.forEach((socket) => socket.terminate()), 1000).unref();
          connections.drain();
          // A request still running after drainMs is cut, so a stop is bounded.
          const cut = setTimeout(() => connections.cut(), drainMs);
          cut.unref();
          server.once('close', () => clearTimeout(cut));
        });
        await retention?.stop();
        await anonymousRetention?.stop();
        await backups?.close();
        await db.close();
        unlock();
      })());
    return { url, port, db, secrets, generatedAdmin, close };
  } catch (error) {
    await retention?.stop().catch(() => undefined);
    await anonymousRetention?.stop().catch(() => undefined);
    await backups?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    unlock();
    throw error;
  }
}
