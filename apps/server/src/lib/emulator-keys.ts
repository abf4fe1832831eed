import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { SecretStore } from './secrets.js';

/** The emulator's keys: from EMULATOR_PUBLIC_KEY / EMULATOR_PRIVATE_KEY, else generated once in DATA_DIR. */
export function emulatorKeys(
  config: Config,
  secrets: SecretStore,
): { publicKey: string; privateKey: string } {
  return {
    publicKey: config.EMULATOR_PUBLIC_KEY ?? secrets.getOrCreate('emulatorPublicKey', () => randomUUID()),
    privateKey: config.EMULATOR_PRIVATE_KEY ?? secrets.getOrCreate('emulatorPrivateKey', () => randomUUID()),
  };
}
