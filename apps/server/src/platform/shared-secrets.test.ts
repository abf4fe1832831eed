import { generateKeyPairSync } from 'node:crypto';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuthKeys } from '../auth/keys.js';
import { prepareSecrets } from '../secrets-setup.js';
import { allMigrations } from '../startup.js';
import { parseConfig } from './config.js';
import { randomKey } from './secrets.js';
import { openDatabaseSecretStore, UnpreparedSecretError } from './shared-secrets.js';

const config = (env: Record<string, string> = {}) =>
  parseConfig({ DATABASE_URL: 'postgres://unused/db', ...env });

for (const target of testDbTargets()) {
  describe(`secrets shared through the database (${target.name})`, () => {
    let db: Db;
    afterEach(async () => db?.close());

    it('gives every instance starting at once the same generated values, stored once', async () => {
      db = await target.open(allMigrations());
      const stores = await Promise.all(
        Array.from({ length: 5 }, () => openDatabaseSecretStore(db, (s) => prepareSecrets(config(), s))),
      );
      const values = stores.map((s) => s.all());
      for (const v of values) expect(v).toEqual(values[0]);
      expect(Object.keys(values[0]!).sort()).toEqual([
        'authAnonKey',
        'authServiceRoleKey',
        'authSigningKey',
        'emulatorMembersPublicKey',
        'emulatorPrivateKey',
        'emulatorPublicKey',
        'mailOutboxToken',
      ]);
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from app_secrets');
      expect(rows[0]?.n).toBe(7);
      // A later instance reads them back unchanged.
      const later = await openDatabaseSecretStore(db, (s) => prepareSecrets(config(), s));
      expect(later.all()).toEqual(values[0]);
    });

    it('keeps values from the environment out of the table', async () => {
      db = await target.open(allMigrations());
      const token = randomKey(32);
      const store = await openDatabaseSecretStore(db, (s) =>
        prepareSecrets(config({ MAIL_OUTBOX_TOKEN: token, EMULATOR_PRIVATE_KEY: 'from-env' }), s),
      );
      expect(Object.values(store.all())).not.toContain(token);
      expect(store.all()).not.toHaveProperty('mailOutboxToken');
      expect(store.all()).not.toHaveProperty('emulatorPrivateKey');
    });

    it('refuses a secret start-up did not prepare, rather than make one for this process only', async () => {
      db = await target.open(allMigrations());
      const store = await openDatabaseSecretStore(db, () => undefined);
      expect(() => store.getOrCreate('somethingNew')).toThrow(UnpreparedSecretError);
    });

    it('signs the API keys with AUTH_SIGNING_KEY, even when keys of an earlier key are stored', async () => {
      db = await target.open(allMigrations());
      const before = await openDatabaseSecretStore(db, (s) => prepareSecrets(config(), s));
      const jwk = JSON.stringify(
        generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
      );
      const withKey = config({ AUTH_SIGNING_KEY: jwk });
      const after = await openDatabaseSecretStore(db, (s) => prepareSecrets(withKey, s));
      const keys = loadAuthKeys(after, { signingKey: jwk });
      const kidOf = (jwt: string) =>
        (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
      expect(kidOf(keys.anonKey)).toBe(keys.kid);
      expect(kidOf(keys.serviceRoleKey)).toBe(keys.kid);
      expect(keys.anonKey).not.toBe(before.getOrCreate('authAnonKey'));
      // The environment's private key is never written to the table.
      expect(after.getOrCreate('authSigningKey')).toBe(before.getOrCreate('authSigningKey'));
      expect(Object.values(after.all())).not.toContain(jwk);
    });
  });
}
