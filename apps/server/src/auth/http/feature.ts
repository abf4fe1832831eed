import type { Db } from '@engage/db';
import type { Hono } from 'hono';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import type { PublicOrigin } from '../../platform/public-origin.js';
import type { SecretStore } from '../../platform/secrets.js';
import { mailOutboxToken } from '../outbox/access.js';
import { mailRoutes } from '../outbox/routes.js';
import type { AuthService } from '../service.js';
import { authRoutes } from './routes.js';

export interface AuthFeatureDeps {
  config: Config;
  db: Db;
  logger: Logger;
  secrets: SecretStore;
  service: AuthService;
  publicOrigin: PublicOrigin;
}

/** The embedded auth: GoTrue's API at `/auth/v1` and the local mail outbox at `/_mail`. */
export function authFeature({ config, db, logger, secrets, service, publicOrigin }: AuthFeatureDeps): {
  api: Hono;
  outbox: Hono;
} {
  return {
    api: authRoutes({ service, logger, siteTitle: config.siteTitle, maxJsonBytes: config.MAX_JSON_BYTES }),
    // The outbox needs its token (DATA_DIR, printed at start); the cookie is Secure behind https.
    outbox: mailRoutes({
      db,
      token: mailOutboxToken(secrets, config.MAIL_OUTBOX_TOKEN),
      secureCookie: publicOrigin().startsWith('https:'),
    }),
  };
}
