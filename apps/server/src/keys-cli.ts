// `npm run keys`: prints the local keys as JSON, for operators and scripts: the embedded auth's anon
// and service-role keys (generated on first use, or AUTH_ANON_KEY / AUTH_SERVICE_ROLE_KEY), the
// embedded emulator's keys the server uses (generated on first use, or EMULATOR_PUBLIC_KEY /
// EMULATOR_PRIVATE_KEY), the mail outbox's token (embedded auth), then any other stored key. The auth
// signing key is private and never printed. With DATABASE_URL the keys are the ones every instance
// shares (the database's; created here, as a first start would, when none exists yet).
import { migrate } from '@engage/db';
import { authKeyOverrides } from './auth/embedded.js';
import { loadAuthKeys, SECRET_NAMES } from './auth/keys.js';
import { mailOutboxToken } from './auth/outbox/access.js';
import { DatabaseOpenError, openDatabase } from './db/open.js';
import { ConfigError, parseConfig, type Config } from './platform/config.js';
import { openSecretStore, type SecretStore } from './platform/secrets.js';
import { emulatorKeys } from './provider/emulator-keys.js';
import { openSecrets } from './secrets-setup.js';
import { allMigrations } from './startup.js';

async function sharedSecrets(config: Config): Promise<SecretStore> {
  const db = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.DATABASE_URL,
    statementTimeoutMs: 0, // waits for an instance's migrations, as start-up does
    max: 1,
  });
  try {
    await migrate(db, allMigrations());
    return await openSecrets(config, db);
  } finally {
    await db.close();
  }
}

async function main() {
  const config = parseConfig(process.env);
  const secrets = config.DATABASE_URL ? await sharedSecrets(config) : openSecretStore(config.dataDir);
  const keys: Record<string, string> = {};
  if (config.embeddedAuth) {
    const auth = loadAuthKeys(secrets, authKeyOverrides(config));
    keys.authAnonKey = auth.anonKey;
    keys.authServiceRoleKey = auth.serviceRoleKey;
    // /_mail?token=… (auth/outbox/access.ts): generated on first use like the keys above.
    keys.mailOutboxToken = mailOutboxToken(secrets, config.MAIL_OUTBOX_TOKEN);
  } else {
    console.error('SUPABASE_URL is set: the hosted project holds the auth keys; only local keys are listed.');
  }
  if (config.embeddedProvider) {
    const emulator = emulatorKeys(config, secrets);
    keys.emulatorPublicKey = emulator.publicKey;
    keys.emulatorMembersPublicKey = emulator.membersPublicKey;
    keys.emulatorPrivateKey = emulator.privateKey;
  }
  for (const [name, value] of Object.entries(secrets.all())) {
    if (name !== SECRET_NAMES.signingKey && !(name in keys)) keys[name] = value;
  }
  console.log(JSON.stringify(keys, null, 2));
}

main().catch((error: unknown) => {
  if (!(error instanceof ConfigError) && !(error instanceof DatabaseOpenError)) throw error;
  console.error(error.message);
  process.exit(1);
});
