// Test support: the whole server with the embedded provider on a real port (app-harness.ts), over a
// given database, with a test's own token check; its generated keys (DATA_DIR) are handed back.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import { startTestApp } from '../app-harness.js';
import type { VerifyAccessToken } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';

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
  const test = await startTestApp({
    db,
    env: { SITE_DIR: path.join(tmpdir(), 'engage-no-site'), ...env },
    deps: {
      logger: createLogger('error', () => undefined),
      verifyAccessToken: verify,
      publicOrigin: () => 'https://engage.example',
    },
  });
  const { url } = await test.listen();
  return {
    origin: url,
    keys: test.secrets.all(),
    handle: async (request) => test.app.fetch(request),
    close: () => test.close(),
  };
}
