/** DELETE /api/account: a signed-in user deletes their own account. */
import { z } from 'zod';

export const ACCOUNT_PATH = '/api/account';

export const deleteAccountBodySchema = z.object({
  /** The account's address, typed again: the confirmation that this is meant. */
  email: z.string().trim().min(1).max(320),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;
