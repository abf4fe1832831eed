// Test support shared by service*.test.ts: one auth service over a fresh PGlite per file, on a
// clock the tests move by hand, with the mails it sends and the passwords it hashes recorded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import type { Db } from '@engage/db';
import { afterAll, beforeAll } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { openSecretStore } from '../platform/secrets.js';
import { late } from './http/auth-harness.js';
import { loadAuthKeys } from './keys.js';
import type { Mail } from './mail.js';
import { hashPassword } from './passwords.js';
import { createAuthService, type AuthService } from './service.js';

/** Registers the hooks; `db` and `service` are usable once beforeAll ran. */
export function authServiceContext() {
  let openDb: Db | undefined;
  let openService: AuthService | undefined;
  let t = Date.parse('2026-11-21T10:00:00Z');
  const sent: Mail[] = [];
  const hashed: string[] = [];

  beforeAll(async () => {
    openDb = await openPglite();
    await migrate(openDb, serverMigrations());
    const keys = loadAuthKeys(openSecretStore(mkdtempSync(path.join(tmpdir(), 'engage-keys-'))));
    openService = createAuthService({
      db: openDb,
      keys,
      mailer: { send: async (m) => void sent.push(m) },
      siteTitle: 'Engage',
      adminEmails: ['admin@example.com'],
      publicOrigin: () => 'http://site.test',
      hashPassword: (password) => {
        hashed.push(password);
        return hashPassword(password);
      },
      refreshReuseIntervalSeconds: 10,
      rateLimits: {
        signup: { burst: 2, perWindow: 2, windowMs: 60_000 },
      },
      now: () => t,
    });
  });
  afterAll(() => openDb?.close());

  return {
    db: late(() => openDb as Db),
    service: late(() => openService as AuthService),
    /** Every mail the service sent, oldest first. */
    sent,
    /** Every password the service hashed, oldest first (tests may empty it). */
    hashed,
    /** Moves the service's clock forward. */
    advance: (ms: number) => void (t += ms),
    ctx: { ip: '10.0.0.1' },
  };
}
