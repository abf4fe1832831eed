import type { Db } from '@engage/db';
import { authKeyOverrides } from './auth/embedded.js';
import { loadAuthKeys } from './auth/keys.js';
import { mailOutboxToken } from './auth/outbox/access.js';
import type { Config } from './platform/config.js';
import { openSecretStore, type SecretStore } from './platform/secrets.js';
import { openDatabaseSecretStore } from './platform/shared-secrets.js';
import { emulatorKeys } from './provider/emulator-keys.js';

/**
 * Reads every generated secret this configuration uses, through the functions the app reads them
 * with: with DATABASE_URL they are all created here, once, for every instance. A new generated key
 * is one `secrets.getOrCreate` in one of these functions (or one more line here).
 */
export function prepareSecrets(config: Config, secrets: SecretStore): void {
  if (config.embeddedAuth) {
    loadAuthKeys(secrets, authKeyOverrides(config));
    mailOutboxToken(secrets, config.MAIL_OUTBOX_TOKEN);
  }
  if (config.embeddedProvider) emulatorKeys(config, secrets);
}

/**
 * The secret store: in the database with DATABASE_URL (shared by every instance, no shared disk
 * needed), else `<DATA_DIR>/secrets.json` as for one process. Environment variables win either way.
 */
export async function openSecrets(config: Config, db: Db): Promise<SecretStore> {
  if (!config.DATABASE_URL) return openSecretStore(config.dataDir);
  return openDatabaseSecretStore(db, (secrets) => prepareSecrets(config, secrets));
}
