// The only file that reads process.env and listens.
import { mailOutboxToken } from './auth/outbox/access.js';
import { DatabaseOpenError } from './db/open.js';
import { ConfigError, parseConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { createPublicOrigin } from './platform/public-origin.js';
import { startServer } from './server.js';
import { startupLines } from './startup-summary.js';

async function main() {
  // Everything this process writes (database, lock file, keys) is for its owner only: files 0600,
  // directories 0700. Set once, here: process.umask() is process-wide and cannot be set in a worker.
  process.umask(0o077);
  let config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Engage cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  try {
    const server = await startServer(config, logger);
    // Its URL (the public origin, as in mail links), where mail goes and who the bootstrap admin is;
    // the outbox token is shown here and nowhere else.
    const origin = createPublicOrigin(config);
    origin.listening(server.port);
    const outboxToken =
      config.embeddedAuth && !config.SMTP_URL
        ? mailOutboxToken(server.secrets, config.MAIL_OUTBOX_TOKEN)
        : null;
    for (const line of startupLines(config, {
      origin: origin.get(),
      listening: server.url,
      outboxToken,
      generatedAdmin: server.generatedAdmin,
    }))
      console.log(line);
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info('shutting down', { signal });
      // close() lets requests in flight finish for up to 10 s; this only guards against a hang past it.
      const force = setTimeout(() => process.exit(1), 15_000);
      force.unref();
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  } catch (error) {
    if (error instanceof DatabaseOpenError) {
      console.error(`Engage cannot start. ${error.message}`);
      process.exit(1);
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Engage cannot start. Port ${config.PORT} is in use: set PORT to a free port.`);
      process.exit(1);
    }
    throw error;
  }
}

void main();
