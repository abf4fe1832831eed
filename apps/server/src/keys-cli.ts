// `npm run keys`: prints the local keys as JSON, for operators and scripts: the embedded auth's anon
// and service-role keys (generated on first use, or AUTH_ANON_KEY / AUTH_SERVICE_ROLE_KEY), the
// embedded emulator's keys the server uses (generated on first use, or EMULATOR_PUBLIC_KEY /
// EMULATOR_PRIVATE_KEY), the mail outbox's token (embedded auth), then any other stored key. The auth signing key is private and never printed.
import { loadAuthKeys, SECRET_NAMES } from './auth/keys.js';
import { ConfigError, parseConfig } from './config.js';
import { emulatorKeys } from './lib/emulator-keys.js';
import { openSecretStore } from './lib/secrets.js';
import { mailOutboxToken } from './routes/mail-access.js';

try {
  const config = parseConfig(process.env);
  const secrets = openSecretStore(config.dataDir);
  const keys: Record<string, string> = {};
  if (config.embeddedAuth) {
    const auth = loadAuthKeys(secrets, {
      anonKey: config.AUTH_ANON_KEY,
      serviceRoleKey: config.AUTH_SERVICE_ROLE_KEY,
    });
    keys.authAnonKey = auth.anonKey;
    keys.authServiceRoleKey = auth.serviceRoleKey;
    // /_mail?token=… (routes/mail-access.ts): generated on first use like the keys above.
    keys.mailOutboxToken = mailOutboxToken(secrets);
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
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
