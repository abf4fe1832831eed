import { migrate } from '@engage/db';
import type { Db, Migration } from '@engage/db';
import { emulatorMigrations } from '@engage/vapi-emulator';
import { bootstrapAdmins, bootstrapOperators } from './auth/bootstrap.js';
import { serverMigrations } from './db/migrations/index.js';
import { openDatabase } from './db/open.js';
import type { Config } from './platform/config.js';
import type { Logger } from './platform/logger.js';
import type { SecretStore } from './platform/secrets.js';
import { openSecrets } from './secrets-setup.js';

/** Every migration the server applies, in order: the server's modules, then the emulator's. */
export function allMigrations(): Migration[] {
  return [...serverMigrations(), ...emulatorMigrations];
}

/**
 * Start-up's one-time work, safe however many instances start at the same moment on one empty
 * PostgreSQL: the migrations, the shared secrets and the bootstrap accounts each run in a transaction
 * holding its own advisory lock, so the first instance does the work and the others find it done.
 *
 * With PostgreSQL it runs on a connection of its own without the pool's statement timeout: waiting
 * for another instance's migrations is expected here, and must not count as an outage.
 */
export interface PreparedStorage {
  secrets: SecretStore;
  /** Admin accounts created now with a generated password: for the operator's eyes, once. */
  generatedAdmin: GeneratedAdmin | null;
}

export interface GeneratedAdmin {
  emails: string[];
  password: string;
}

export async function prepareStorage(config: Config, db: Db, logger: Logger): Promise<PreparedStorage> {
  const setup = config.DATABASE_URL
    ? await openDatabase({
        dataDir: config.dataDir,
        databaseUrl: config.DATABASE_URL,
        statementTimeoutMs: 0,
        max: 1,
      })
    : db;
  try {
    await migrate(setup, allMigrations());
    // With DATABASE_URL the generated keys live in the database, shared by every instance.
    const secrets = await openSecrets(config, setup);
    const generatedAdmin = config.embeddedAuth ? await bootstrapAccounts(config, setup, logger) : null;
    return { secrets, generatedAdmin };
  } finally {
    if (setup !== db) await setup.close();
  }
}

async function bootstrapAccounts(config: Config, db: Db, logger: Logger): Promise<GeneratedAdmin | null> {
  const boot = await bootstrapAdmins(db, config.ADMIN_EMAILS, config.ADMIN_PASSWORD);
  if (boot.created.length) logger.info('created the bootstrap admin accounts', { emails: boot.created });
  const operators = await bootstrapOperators(db, config.OPERATOR_EMAILS, config.ADMIN_EMAILS);
  if (operators.length) logger.info('gave the operator role (OPERATOR_EMAILS)', { emails: operators });
  // Handed to the caller, never to the structured log: main.ts prints it once, to the terminal.
  return boot.generatedPassword ? { emails: boot.created, password: boot.generatedPassword } : null;
}
