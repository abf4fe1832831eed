// Test support: the whole server with the embedded provider on a real port, over a given database,
// with a test's own token check; its generated keys (DATA_DIR) are handed back.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from '../app.js';
import { parseConfig } from '../platform/config.js';
import type { VerifyAccessToken } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { openSecretStore } from '../platform/secrets.js';

export interface ProviderTestServer {
  origin: string;
  /** DATA_DIR's secrets: emulatorPublicKey, emulatorMembersPublicKey, emulatorPrivateKey… */
  keys: Record<string, string | undefined>;
  /** The app's own handler: requests without a socket (no client-side connection limits). */
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export async function startProviderTestServer(
  db: Db,
  verify: VerifyAccessToken,
  /** More configuration (e.g. the same EMULATOR_*_KEY for two instances on one database). */
  env: Record<string, string> = {},
): Promise<ProviderTestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-provider-test-'));
  const secrets = openSecretStore(dir);
  const app = createApp({
    config: parseConfig({ DATA_DIR: dir, SITE_DIR: path.join(dir, 'site'), ...env }),
    db,
    logger: createLogger('error', () => undefined),
    secrets,
    verifyAccessToken: verify,
    publicOrigin: () => 'https://engage.example',
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys: secrets.all(),
    handle: async (request) => app.fetch(request),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
