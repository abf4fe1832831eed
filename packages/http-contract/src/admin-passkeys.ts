import { z } from 'zod';

/** One passkey of a user, as the admin dashboard shows it. */
export const adminPasskeySchema = z.object({
  id: z.string(),
  friendly_name: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type AdminPasskey = z.infer<typeof adminPasskeySchema>;

/** GET /users/:id/passkeys */
export const adminPasskeysResponseSchema = z.object({ passkeys: z.array(adminPasskeySchema) });
export type AdminPasskeysResponse = z.infer<typeof adminPasskeysResponseSchema>;

/** DELETE /users/:id/passkeys/:passkeyId: the passkey that was removed. */
export const adminPasskeyDeletedSchema = z.object({ passkey: adminPasskeySchema });
export type AdminPasskeyDeleted = z.infer<typeof adminPasskeyDeletedSchema>;
