import { randomUUID } from 'node:crypto';
import type { Config } from '../platform/config.js';
import type { SecretStore } from '../platform/secrets.js';

/**
 * Where the server reaches its embedded provider: a name that resolves nowhere, since every request
 * to it goes through the server's own handler in-process (the `fetch` given with it), never a socket.
 */
export const EMBEDDED_PROVIDER_URL = 'http://embedded.invalid/provider';

/** The embedded provider's keys: one private, a public one for everyone, one for signed-in users. */
export interface EmulatorKeySet {
  publicKey: string;
  /** The public key of the sign-in-only pages: /config.json gives it only with a valid session. */
  membersPublicKey: string;
  privateKey: string;
}

/**
 * The emulator's keys: from EMULATOR_PUBLIC_KEY / EMULATOR_MEMBERS_PUBLIC_KEY / EMULATOR_PRIVATE_KEY,
 * else generated once in DATA_DIR. The one place keys are stored, so moving them elsewhere (a table
 * for several instances) changes this function only.
 */
export function emulatorKeys(config: Config, secrets: SecretStore): EmulatorKeySet {
  return {
    publicKey: config.EMULATOR_PUBLIC_KEY ?? secrets.getOrCreate('emulatorPublicKey', () => randomUUID()),
    membersPublicKey:
      config.EMULATOR_MEMBERS_PUBLIC_KEY ??
      secrets.getOrCreate('emulatorMembersPublicKey', () => randomUUID()),
    privateKey: config.EMULATOR_PRIVATE_KEY ?? secrets.getOrCreate('emulatorPrivateKey', () => randomUUID()),
  };
}
