// The admin dashboard's view of a user's passkeys: list, and remove (audited). Mounted
// by admin/routes.ts behind its admin check (requireAdmin, ADMIN_REQUIRE_MFA).
import type { AdminPasskeyDeleted, AdminPasskeysResponse } from '@engage/http-contract';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AuthEnv } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { AuditLog } from './audit.js';
import type { PasskeyAdmin } from './passkeys.js';
import { AdminError } from './types.js';

const uuid = z.uuid();

export interface AdminPasskeyRouteDeps {
  passkeys: PasskeyAdmin | null;
  audit: AuditLog;
  logger: Logger;
  /** The user's email for the audit entry (null for an unknown id). */
  emailOf: (id: string) => Promise<string | null>;
}

export function mountAdminPasskeyRoutes(app: Hono<AuthEnv>, deps: AdminPasskeyRouteDeps) {
  const admin = () => {
    if (!deps.passkeys)
      throw new AdminError('not_supported', 'Passkeys are not available with this auth setup.');
    return deps.passkeys;
  };
  const ids = (c: Context) => {
    const user = uuid.safeParse(c.req.param('id'));
    const passkey = uuid.safeParse(c.req.param('passkeyId') ?? '00000000-0000-0000-0000-000000000000');
    return user.success && passkey.success ? { userId: user.data, passkeyId: passkey.data } : null;
  };
  const badId = (c: Context) => c.json({ error: 'invalid_request', message: 'The ids must be UUIDs.' }, 400);

  app.get('/users/:id/passkeys', async (c) => {
    const id = ids(c);
    if (!id) return badId(c);
    return c.json({ passkeys: await admin().list(id.userId) } satisfies AdminPasskeysResponse);
  });

  app.delete('/users/:id/passkeys/:passkeyId', async (c) => {
    const id = ids(c);
    if (!id) return badId(c);
    const passkey = await admin().remove(id.userId, id.passkeyId);
    const actor = c.get('user');
    const email = (await deps.emailOf(id.userId)) ?? '';
    await deps.audit.record(
      actor,
      'user.passkey_delete',
      [{ id: id.userId, email }],
      passkey.friendly_name ?? undefined,
    );
    deps.logger.info('admin removed a passkey', { actor: actor.id, target: id.userId, passkey: passkey.id });
    return c.json({ passkey } satisfies AdminPasskeyDeleted);
  });
}
