import type { Db } from '@engage/db';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import { createEmbeddedUserAdmin } from './embedded.js';
import { createHostedUserAdmin } from './hosted.js';
import type { UserAdmin } from './types.js';

/**
 * The user admin the configuration asks for: hosted Supabase when SUPABASE_URL is set (which then
 * needs SUPABASE_SERVICE_ROLE_KEY; without it, null: the admin API answers 503 saying so), the
 * embedded auth's table otherwise.
 */
export function createUserAdmin(
  config: Config,
  db: Db,
  extras: { auth?: AuthService | null; siteOrigin?: () => string } = {},
): UserAdmin | null {
  if (config.embeddedAuth) return createEmbeddedUserAdmin(db, extras.auth?.admin);
  if (!config.SUPABASE_URL || !config.SUPABASE_SERVICE_ROLE_KEY) return null;
  return createHostedUserAdmin({
    url: config.SUPABASE_URL,
    serviceRoleKey: config.SUPABASE_SERVICE_ROLE_KEY,
    siteOrigin: extras.siteOrigin,
  });
}
