/**
 * The admin API (/api/admin): what the server answers and accepts.
 * Field names are Supabase's, as the admin screen shows them.
 */
import { z } from 'zod';

/** What an account may do: `operator` uses the server-held provider key, `admin` also manages users. */
export const userRoleSchema = z.enum(
  ['user', 'operator', 'admin'],
  "role must be 'user', 'operator' or 'admin'.",
);
export type UserRole = z.infer<typeof userRoleSchema>;
export const USER_ROLES: readonly UserRole[] = userRoleSchema.options;

export const userStatusSchema = z.enum(['all', 'verified', 'unverified']);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** A row of the user list (and the user every action answers). */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  created_at: z.string(),
  email_confirmed_at: z.string().nullable(),
  last_sign_in_at: z.string().nullable(),
  /** True when app_metadata.role is 'admin'. */
  is_admin: z.boolean(),
  role: userRoleSchema,
  /** Until when sign-in is refused (GoTrue's ban); null when not banned or the ban has run out. */
  banned_until: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** One authentication factor of a user, as GoTrue lists it. */
export const adminFactorSchema = z.object({
  id: z.string(),
  factor_type: z.string(),
  status: z.string(),
  friendly_name: z.string().nullable(),
});
export type AdminFactor = z.infer<typeof adminFactorSchema>;

/** The details panel (GET /users/:id): the row plus factors and metadata. */
export const adminUserDetailSchema = adminUserSchema.extend({
  invited_at: z.string().nullable(),
  factors: z.array(adminFactorSchema),
  app_metadata: z.record(z.string(), z.unknown()),
  user_metadata: z.record(z.string(), z.unknown()),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** GET /users: one page, newest first; `nextCursor` is opaque, null on the last page. */
export const usersPageSchema = z.object({
  users: z.array(adminUserSchema),
  /** How many users match the search and status, over all pages. */
  total: z.number(),
  nextCursor: z.string().nullable(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

export const signupDaySchema = z.object({
  /** UTC calendar day, YYYY-MM-DD. */
  day: z.string(),
  count: z.number(),
});
export type SignupDay = z.infer<typeof signupDaySchema>;

/** GET /stats. */
export const adminStatsSchema = z.object({
  total: z.number(),
  verified: z.number(),
  pending: z.number(),
  signupsPerDay: z.array(signupDaySchema),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const auditActionSchema = z.enum([
  'user.create',
  'user.delete',
  'user.verify',
  'user.role',
  'user.invite',
  'user.recovery',
  'user.magic_link',
  'user.sign_out',
  'user.ban',
  'user.export',
  'user.passkey_delete',
  'outbox.reveal',
  'account.delete',
  'visitor_address.read',
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One admin action of the audit log. */
export const auditEntrySchema = z.object({
  id: z.number(),
  actor_id: z.string(),
  actor_email: z.string(),
  action: auditActionSchema,
  target_id: z.string().nullable(),
  target_email: z.string().nullable(),
  /** What changed where the action alone does not say: the new role, the ban's duration, the export's filter. */
  detail: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /audit. */
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The answer of create, delete, get and every per-user action. */
export const userResponseSchema = z.object({ user: adminUserSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

/** GET /users/:id: the details panel. */
export const userDetailResponseSchema = z.object({ user: adminUserDetailSchema });
export type UserDetailResponse = z.infer<typeof userDetailResponseSchema>;

/** POST /users/verify: the ids that changed (unknown or already confirmed ones are left out). */
export const verifyResponseSchema = z.object({
  verified: z.array(z.string()),
  users: z.array(adminUserSchema),
});
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

/** PUT /users/:id/role. */
export const roleBodySchema = z.object(
  { role: userRoleSchema },
  'The body must be a JSON object like {"role": "operator"}.',
);
export type RoleBody = z.infer<typeof roleBodySchema>;

/** POST /users/invite. */
export const inviteBodySchema = z.object(
  {
    email: z
      .string('email is required.')
      .trim()
      .max(320, 'The email address is at most 320 characters.')
      .pipe(z.email('Please provide a valid email address.')),
  },
  'The body must be a JSON object like {"email": "someone@example.com"}.',
);
export type InviteBody = z.input<typeof inviteBodySchema>;

/** POST /users/:id/ban: GoTrue's ban_duration ('24h', '1h30m'; 'none' lifts the ban). */
export const banBodySchema = z.object(
  {
    duration: z
      .string("duration is required: like '24h', or 'none' to lift the ban.")
      .trim()
      .min(1, "duration is required: like '24h', or 'none' to lift the ban.")
      .max(32, 'The duration is at most 32 characters.'),
  },
  'The body must be a JSON object like {"duration": "24h"}.',
);
export type BanBody = z.input<typeof banBodySchema>;

/** Every refusal of the server, in the house shape. */
export const errorBodySchema = z.object({ error: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
