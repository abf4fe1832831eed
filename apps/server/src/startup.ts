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
export async function prepareStorage(config: Config, db: Db, logger: Logger): Promise<SecretStore> {
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
    if (config.embeddedAuth) await bootstrapAccounts(config, setup, logger);
    return secrets;
  } finally {
    if (setup !== db) await setup.close();
  }
}

async function bootstrapAccounts(config: Config, db: Db, logger: Logger): Promise<void> {
  const boot = await bootstrapAdmins(db, config.ADMIN_EMAILS, config.ADMIN_PASSWORD);
  if (boot.created.length) logger.info('created the bootstrap admin accounts', { emails: boot.created });
  const operators = await bootstrapOperators(db, config.OPERATOR_EMAILS, config.ADMIN_EMAILS);
  if (operators.length) logger.info('gave the operator role (OPERATOR_EMAILS)', { emails: operators });
  // Printed once, to the terminal only (never to the structured log): the operator's first sign-in.
  if (boot.generatedPassword)
    console.warn(
      `Admin account(s) ${boot.created.join(', ')} created with the password: ${boot.generatedPassword}\n` +
        'Sign in and change it, or set ADMIN_PASSWORD before the first start.',
    );
}
