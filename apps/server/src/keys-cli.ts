// `npm run keys`: prints every local key (auth and emulator) as JSON, for operators and scripts.
import { parseConfig } from './config.js';
import { openSecretStore } from './lib/secrets.js';

const config = parseConfig(process.env);
console.log(JSON.stringify(openSecretStore(config.dataDir).all(), null, 2));
