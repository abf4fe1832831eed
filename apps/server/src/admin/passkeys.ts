// A user's passkeys in the admin dashboard: the embedded auth's table, or hosted
// Supabase through GoTrue's admin API (auth-js's `admin.passkey`). No HTTP here: admin/passkey-routes.ts.
import type { AdminPasskey } from '@engage/http-contract';
import { GoTrueAdminApi, isAuthApiError } from '@supabase/auth-js';
import { AuthError } from '../auth/errors.js';
import type { AuthService } from '../auth/service.js';
import type { Config } from '../platform/config.js';
import { AdminError } from './types.js';

export interface PasskeyAdmin {
  /** The user's passkeys, oldest first. Throws AdminError 'user_not_found'. */
  list(userId: string): Promise<AdminPasskey[]>;
  /** Removes one passkey and returns it. Throws 'user_not_found', 'passkey_not_found'. */
  remove(userId: string, passkeyId: string): Promise<AdminPasskey>;
}

interface PasskeyJson {
  id: string;
  friendly_name?: string | null;
  created_at: string;
  last_used_at?: string | null;
}

const toAdmin = (p: PasskeyJson): AdminPasskey => ({
  id: p.id,
  friendly_name: p.friendly_name ?? null,
  created_at: p.created_at,
  last_used_at: p.last_used_at ?? null,
});

const NOT_FOUND = {
  user_not_found: () => new AdminError('user_not_found', 'No user has this id.'),
  passkey_not_found: () => new AdminError('passkey_not_found', 'This user has no passkey with this id.'),
};

/** The auth service's refusal as the dashboard's; anything else is not ours to translate. */
function translate(error: unknown, status?: number, code?: string): never {
  if (code === 'user_not_found' || code === 'passkey_not_found') throw NOT_FOUND[code]();
  if (status === 404) throw NOT_FOUND.passkey_not_found();
  throw error;
}

export function createEmbeddedPasskeyAdmin(auth: AuthService): PasskeyAdmin {
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AuthError) translate(error, error.status, error.code);
      throw error;
    }
  };
  return {
    list: (userId) => guard(async () => (await auth.adminPasskeys.list(userId)).map(toAdmin)),
    remove: (userId, passkeyId) =>
      guard(async () => toAdmin(await auth.adminPasskeys.remove(userId, passkeyId))),
  };
}

export function createHostedPasskeyAdmin(
  url: string,
  serviceRoleKey: string,
  fetchImpl?: typeof fetch,
): PasskeyAdmin {
  const api = new GoTrueAdminApi({
    url: `${url.replace(/\/+$/, '')}/auth/v1`,
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey },
    fetch: fetchImpl,
  });
  const failed = (what: string, error: { status?: number; message: string; code?: string }): never => {
    if (isAuthApiError(error)) translate(error, error.status, error.code);
    throw new AdminError('upstream_error', `Supabase refused to ${what} (${error.status ?? 'no status'}).`);
  };
  return {
    async list(userId) {
      const { data, error } = await api.passkey.listPasskeys({ userId });
      if (error) return failed('list the passkeys', error);
      return (data as PasskeyJson[]).map(toAdmin);
    },
    async remove(userId, passkeyId) {
      const before = await this.list(userId);
      const passkey = before.find((p) => p.id === passkeyId);
      if (!passkey) throw NOT_FOUND.passkey_not_found();
      const { error } = await api.passkey.deletePasskey({ userId, passkeyId });
      if (error) return failed('remove the passkey', error);
      return passkey;
    },
  };
}

/** The passkey admin the configuration asks for, as createUserAdmin chooses (admin/index.ts). */
export function createPasskeyAdmin(
  config: Config,
  auth: AuthService | null | undefined,
): PasskeyAdmin | null {
  if (config.embeddedAuth) return auth ? createEmbeddedPasskeyAdmin(auth) : null;
  if (!config.SUPABASE_URL || !config.SUPABASE_SERVICE_ROLE_KEY) return null;
  return createHostedPasskeyAdmin(config.SUPABASE_URL, config.SUPABASE_SERVICE_ROLE_KEY);
}
