import type { Db } from '@engage/db';
import { randomKey, type SecretStore } from './secrets.js';

/** Any fixed 64-bit key: the instances starting on one PostgreSQL create the secrets one at a time. */
const SECRETS_LOCK_KEY = 872_114_303;

/** Thrown when code asks for a secret the start-up did not prepare (a programming error, not input). */
export class UnpreparedSecretError extends Error {
  constructor(name: string) {
    super(
      `The secret '${name}' was not prepared at start-up: read it inside prepareSecrets (secrets-setup.ts) ` +
        'so that every instance shares one value.',
    );
    this.name = 'UnpreparedSecretError';
  }
}

/**
 * The secret store of several instances on one PostgreSQL (`DATABASE_URL`): the `app_secrets` table.
 *
 * `prepare` reads every secret this configuration uses (through the same functions the app uses,
 * so a new key is one more `getOrCreate` there). It runs once, in a transaction holding an advisory
 * lock: the first instance generates the missing values and inserts them; every other instance,
 * however many start at the same moment, waits for the lock and then reads those values. After
 * that the store answers from memory, synchronously, and refuses a name it was not prepared with
 * (a value generated later, in one process only, would differ between instances).
 */
export async function openDatabaseSecretStore(
  db: Db,
  prepare: (store: SecretStore) => void,
): Promise<SecretStore> {
  const values = await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SECRETS_LOCK_KEY]);
    const { rows } = await tx.query<{ name: string; value: string }>('select name, value from app_secrets');
    const stored = new Map(rows.map((r) => [r.name, r.value]));
    const created = new Map<string, string>();
    prepare({
      getOrCreate(name, generate = () => randomKey()) {
        const existing = stored.get(name) ?? created.get(name);
        if (existing !== undefined) return existing;
        const value = generate();
        created.set(name, value);
        return value;
      },
      all: () => Object.fromEntries([...stored, ...created]),
    });
    for (const [name, value] of created)
      await tx.query('insert into app_secrets (name, value) values ($1, $2)', [name, value]);
    return new Map([...stored, ...created]);
  });
  return {
    getOrCreate(name) {
      const value = values.get(name);
      if (value === undefined) throw new UnpreparedSecretError(name);
      return value;
    },
    all: () => Object.fromEntries(values),
  };
}
