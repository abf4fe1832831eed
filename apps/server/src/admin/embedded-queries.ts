import type { Queryable } from '@engage/db';
import { containsPattern, toUser, USER_COLUMNS, type UserRow } from './embedded-rows.js';
import type { AdminUser, ListUsersPage, ListUsersQuery, SignupDay, UserStats } from './types.js';

/**
 * What the dashboard reads of the embedded auth's users, in SQL on auth_users. Search uses the
 * trigram index of migrations/admin when present; pages are keyset-paginated on (created_at, id),
 * so page 500 costs what page 1 does. Anonymous users are not accounts: never listed nor counted.
 * @module
 */

export async function listUsers(
  db: Queryable,
  query: ListUsersQuery,
  withTotal = true,
): Promise<ListUsersPage> {
  // Anonymous users (AUTH_ANONYMOUS) are not accounts: the dashboard neither lists nor counts them.
  const where: string[] = ['not is_anonymous'];
  const params: unknown[] = [];
  const search = query.search?.trim();
  if (search) {
    params.push(containsPattern(search));
    where.push(`lower(email) like $${params.length}`);
  }
  if (query.status === 'verified') where.push('email_confirmed_at is not null');
  if (query.status === 'unverified') where.push('email_confirmed_at is null');
  const filter = where.length ? `where ${where.join(' and ')}` : '';

  const pageWhere = [...where];
  const pageParams = [...params];
  if (query.after) {
    pageParams.push(query.after.createdAt, query.after.id);
    pageWhere.push(
      `(created_at, id) < ($${pageParams.length - 1}::timestamptz, $${pageParams.length}::uuid)`,
    );
  }
  pageParams.push(query.limit + 1);
  const pageSql = `select ${USER_COLUMNS} from auth_users
    ${pageWhere.length ? `where ${pageWhere.join(' and ')}` : ''}
    order by created_at desc, id desc limit $${pageParams.length}`;

  const count = withTotal
    ? await db.query<{ total: number }>(`select count(*)::int as total from auth_users ${filter}`, params)
    : null;
  const { rows } = await db.query<UserRow>(pageSql, pageParams);
  const more = rows.length > query.limit;
  const shown = more ? rows.slice(0, query.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    users: shown.map(toUser),
    total: count?.rows[0]?.total ?? 0,
    next: more && last ? { createdAt: last.cursor_at, id: last.id } : null,
  };
}

export async function userStats(db: Queryable): Promise<UserStats> {
  const { rows } = await db.query<UserStats>(
    `select count(*)::int as total,
            count(email_confirmed_at)::int as verified,
            (count(*) - count(email_confirmed_at))::int as pending
       from auth_users where not is_anonymous`,
  );
  return rows[0] ?? { total: 0, verified: 0, pending: 0 };
}

export async function signupsPerDay(db: Queryable, days: number): Promise<SignupDay[]> {
  const { rows } = await db.query<SignupDay>(
    `with bounds as (select (now() at time zone 'UTC')::date as today),
          span as (
            select generate_series(today - ($1::int - 1), today, interval '1 day')::date as day from bounds
          ),
          counts as (
            select (created_at at time zone 'UTC')::date as day, count(*)::int as n
              from auth_users, bounds
             where not is_anonymous
               and created_at >= ((today - ($1::int - 1))::timestamp at time zone 'UTC')
             group by 1
          )
     select to_char(span.day, 'YYYY-MM-DD') as day, coalesce(counts.n, 0)::int as count
       from span left join counts on counts.day = span.day
      order by span.day`,
    [days],
  );
  return rows;
}

export async function getUser(db: Queryable, id: string): Promise<AdminUser | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth_users where id = $1 and not is_anonymous`,
    [id],
  );
  return rows[0] ? toUser(rows[0]) : null;
}
