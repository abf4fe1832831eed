import { z } from 'zod';
import { authErrors } from './errors.js';
import { metadataFits } from './metadata.js';

const metadata = z
  .record(z.string(), z.unknown())
  .refine(metadataFits, { message: 'must be at most 16 KiB of JSON' });
const nullableString = z.string().nullable().optional();

export const signupBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  data: metadata.nullable().optional(),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
});

export const passwordGrantBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
});

export const pkceGrantBody = z.object({
  auth_code: z.string().optional(),
  code_verifier: z.string().optional(),
});

export const refreshGrantBody = z.object({ refresh_token: z.string().optional() });

export const recoverBody = z.object({
  email: z.string().optional(),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
});

export const resendBody = z.object({
  type: z.string(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

export const otpBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  create_user: z.boolean().optional(),
  data: metadata.nullable().optional(),
  channel: z.string().optional(),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
});

export const inviteBody = z.object({
  email: z.string().optional(),
  data: metadata.nullable().optional(),
});

export const linkTypes = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;

export const generateLinkBody = z.object({
  type: z.string(),
  email: z.string().optional(),
  password: z.string().optional(),
  new_email: z.string().optional(),
  data: metadata.nullable().optional(),
  redirect_to: z.string().optional(),
});

export const updateUserBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  data: metadata.nullable().optional(),
  app_metadata: z.unknown().optional(),
  nonce: z.string().optional(),
  current_password: z.string().optional(),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
});

export const verifyTypes = [
  'signup',
  'invite',
  'recovery',
  'magiclink',
  'email_change',
  'email_change_current',
  'email_change_new',
  'email',
] as const;
export type VerifyType = (typeof verifyTypes)[number];

export const verifyBody = z.object({
  type: z.string(),
  token_hash: z.string().optional(),
  token: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

export const adminUserBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  password_hash: z.string().optional(),
  email_confirm: z.boolean().optional(),
  phone_confirm: z.boolean().optional(),
  user_metadata: metadata.optional(),
  app_metadata: metadata.optional(),
  role: z.string().optional(),
  ban_duration: z.string().optional(),
  id: z.string().optional(),
});

export const enrollBody = z.object({
  factor_type: z.string(),
  friendly_name: z.string().max(255).optional(),
  issuer: z.string().max(255).optional(),
  phone: z.string().optional(),
});

export const challengeBody = z.object({ channel: z.string().optional() }).passthrough();
export const mfaVerifyBody = z.object({ challenge_id: z.string(), code: z.string() });

/** Parses a request body; a wrong shape is 400 `validation_failed` naming the first bad field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw authErrors.validation(`Invalid request body: ${where}${issue?.message ?? 'unexpected shape'}`);
}
