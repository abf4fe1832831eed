// `npm run keys`: prints the local keys as JSON, for operators and scripts: the embedded auth's anon
// and service-role keys (generated on first use, or AUTH_ANON_KEY / AUTH_SERVICE_ROLE_KEY), then every
// other stored key (the emulator's). The auth signing key is private and never printed.
import { loadAuthKeys, SECRET_NAMES } from './auth/keys.js';
import { ConfigError, parseConfig } from './config.js';
import { openSecretStore } from './lib/secrets.js';

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
  } else {
    console.error('SUPABASE_URL is set: the hosted project holds the auth keys; only local keys are listed.');
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
