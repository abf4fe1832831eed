import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Generated secrets (signing keys, local API keys) kept in `<DATA_DIR>/secrets.json`, readable by the
 * owner only. Values from the environment always win over stored ones and are never written here.
 */
export interface SecretStore {
  /** The stored value for `name`, generating and persisting it on first use. */
  getOrCreate(name: string, generate?: () => string): string;
  /** Every stored value (for `npm run keys`). */
  all(): Record<string, string>;
}

export const randomKey = (bytes = 24): string => randomBytes(bytes).toString('base64url');

export function openSecretStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, 'secrets.json');
  let values: Record<string, string> = {};
  if (existsSync(file)) {
    try {
      values = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      throw new Error(`${file} is not valid JSON. Fix it, or delete it to generate new local keys.`);
    }
  }
  const save = () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(values, null, 2), { mode: 0o600 });
    renameSync(tmp, file);
    chmodSync(file, 0o600);
  };
  return {
    getOrCreate(name, generate = () => randomKey()) {
      const existing = values[name];
      if (existing !== undefined) return existing;
      const created = generate();
      values[name] = created;
      save();
      return created;
    },
    all: () => ({ ...values }),
  };
}
