// Anonymous sign-in (AUTH_ANONYMOUS; GoTrue's POST /signup without an email or phone) and the
// housekeeping that keeps it from filling the database: a per-address limit (IPv6 by /64), a cap
// on anonymous users at once, and the deletion of anonymous users never upgraded to an address.
import type { AuthCore } from './core.js';
import { AuthError } from './errors.js';
import { assertMetadataFits } from './metadata.js';
import type { RequestContext, TokenResponse } from './types.js';
import { USER_COLUMNS, type UserRow } from './users.js';

/** Pruned per sign-in at most: the work one request does stays bounded. */
const PRUNE_BATCH = 100;

export const anonymousDisabled = () =>
  new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');

export function createAnonymousApi(core: AuthCore) {
  const { db } = core;
  const options = core.opts.anonymous;

  /**
   * Deletes up to `limit` anonymous users created more than AUTH_ANONYMOUS_RETENTION_DAYS ago
   * (their sessions and tokens go with them). Returns how many went.
   */
  async function pruneAnonymousUsers(limit = PRUNE_BATCH): Promise<number> {
    if (!options) return 0;
    const cutoff = new Date(core.now() - options.retentionDays * 86_400_000);
    const { rows } = await db.query<{ id: string }>(
      `delete from auth_users where id in (
         select id from auth_users where is_anonymous and created_at < $1 order by created_at limit $2
       ) returning id`,
      [cutoff, limit],
    );
    return rows.length;
  }

  return {
    pruneAnonymousUsers,

    /** POST /signup with neither email nor phone: a new anonymous user and its session. */
    async signInAnonymously(data: Record<string, unknown> | null | undefined, ctx: RequestContext) {
      if (!options) throw anonymousDisabled();
      await core.limit('anonymous', ctx.ip);
      assertMetadataFits(data);
      const metadata = JSON.stringify(data ?? {});
      await pruneAnonymousUsers();
      // The cap checked by the insert itself: sign-ins racing for the last places can overshoot it by
      // at most the number running at once, never by a flood.
      const { rows } = await db.query<UserRow>(
        `insert into auth_users (email, is_anonymous, raw_user_meta_data, created_at)
         select '', true, $1::jsonb, $3
         where (select count(*) from auth_users where is_anonymous) < $2
         returning ${USER_COLUMNS}`,
        [metadata, options.maxUsers, new Date(core.now())],
      );
      const user = rows[0];
      if (!user)
        throw new AuthError(
          429,
          'over_request_rate_limit',
          'Too many anonymous users at the moment: please sign up with an email address instead.',
        );
      const session: TokenResponse = await core.signIn(user, 'anonymous', ctx);
      return session;
    },
  };
}
