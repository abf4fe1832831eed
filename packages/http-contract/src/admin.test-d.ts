// Type tests of the admin API contract (vitest typecheck): a field that drifts here is a type error
// in the server's answers and in the site's client alike.
import { describe, expectTypeOf, it } from 'vitest';
import {
  adminUserSchema,
  banBodySchema,
  roleBodySchema,
  USER_ROLES,
  type AdminStats,
  type AdminUser,
  type AdminUserDetail,
  type AuditEntry,
  type BanBody,
  type InviteBody,
  type PublicConfig,
  type RoleBody,
  type UserRole,
  type UsersPage,
} from './index.js';

describe('admin API contract', () => {
  it('a user row has every field, nullable where the server may send null', () => {
    expectTypeOf<AdminUser>().toEqualTypeOf<{
      id: string;
      email: string;
      created_at: string;
      email_confirmed_at: string | null;
      last_sign_in_at: string | null;
      is_admin: boolean;
      role: 'user' | 'operator' | 'admin';
      banned_until: string | null;
    }>();
    expectTypeOf(adminUserSchema.parse).returns.toEqualTypeOf<AdminUser>();
  });

  it('the details extend the row with factors and metadata', () => {
    expectTypeOf<AdminUserDetail>().toExtend<AdminUser>();
    expectTypeOf<AdminUserDetail['factors'][number]>().toEqualTypeOf<{
      id: string;
      factor_type: string;
      status: string;
      friendly_name: string | null;
    }>();
    expectTypeOf<AdminUserDetail['app_metadata']>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('roles are exactly three', () => {
    expectTypeOf<UserRole>().toEqualTypeOf<'user' | 'operator' | 'admin'>();
    expectTypeOf(USER_ROLES).toEqualTypeOf<readonly UserRole[]>();
    expectTypeOf<RoleBody>().toEqualTypeOf<{ role: UserRole }>();
    expectTypeOf(roleBodySchema.parse).returns.toEqualTypeOf<RoleBody>();
  });

  it('pages, stats and audit entries have the shapes the site reads', () => {
    expectTypeOf<UsersPage>().toEqualTypeOf<{
      users: AdminUser[];
      total: number;
      nextCursor: string | null;
    }>();
    expectTypeOf<AdminStats['signupsPerDay']>().toEqualTypeOf<{ day: string; count: number }[]>();
    expectTypeOf<AuditEntry['action']>().toExtend<
      `user.${string}` | `outbox.${string}` | `account.${string}` | `visitor_address.${string}`
    >();
    expectTypeOf<AuditEntry['detail']>().toEqualTypeOf<string | null>();
  });

  it('invite and ban bodies take one string each', () => {
    expectTypeOf<InviteBody>().toEqualTypeOf<{ email: string }>();
    expectTypeOf<BanBody>().toEqualTypeOf<{ duration: string }>();
    expectTypeOf(banBodySchema.parse).returns.toEqualTypeOf<{ duration: string }>();
  });

  it('the public config carries no private field', () => {
    expectTypeOf<keyof PublicConfig>().toEqualTypeOf<
      'siteTitle' | 'ownerDomain' | 'auth' | 'provider' | 'assistants' | 'conversations' | 'answerByMail'
    >();
    expectTypeOf<keyof PublicConfig['provider']>().not.toExtend<'privateKey'>();
  });
});
