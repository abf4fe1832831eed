import {
  compareNewestFirst,
  type AdminUser,
  type ListUsersPage,
  type ListUsersQuery,
  type SignupDay,
  type UserStatus,
} from './types.js';

/**
 * The user list's search, filter, pages and sign-up counts worked out in memory: hosted Supabase's
 * admin API has none of them, so ./hosted.ts reads every user and applies these (the embedded
 * implementation does the same in SQL).
 * @module
 */

const key = (u: AdminUser) => ({ createdAtKey: u.created_at, id: u.id });

/** Newest first, ties by id: the order of every list and page. */
export function sortNewestFirst(users: AdminUser[]): AdminUser[] {
  return users.sort((a, b) => compareNewestFirst(key(a), key(b)));
}

/** Whether a user matches the search (part of the email, any case) and the verified filter. */
export function userFilter(filter: {
  search?: string | undefined;
  status: UserStatus;
}): (u: AdminUser) => boolean {
  const term = filter.search?.trim().toLowerCase();
  return (u) =>
    (!term || u.email.toLowerCase().includes(term)) &&
    (filter.status === 'all' || (filter.status === 'verified') === (u.email_confirmed_at !== null));
}

/** The page of `matching` (sorted newest first) that follows the query's cursor. */
export function pageOf(
  matching: readonly AdminUser[],
  query: Pick<ListUsersQuery, 'after' | 'limit'>,
): ListUsersPage {
  const after = query.after;
  const start = after
    ? matching.findIndex(
        (u) =>
          compareNewestFirst(key(u), {
            createdAtKey: new Date(after.createdAt).toISOString(),
            id: after.id,
          }) > 0,
      )
    : 0;
  const rest = start < 0 ? [] : matching.slice(start);
  const users = rest.slice(0, query.limit);
  const last = users[users.length - 1];
  return {
    users,
    total: matching.length,
    next: rest.length > query.limit && last ? { createdAt: last.created_at, id: last.id } : null,
  };
}

/** Sign-ups per UTC day for the `days` days up to `now`'s, oldest first, days without any as 0. */
export function signupsPerDay(users: readonly AdminUser[], days: number, now: Date): SignupDay[] {
  const today = new Date(now);
  today.setUTCHours(0, 0, 0, 0);
  const out: SignupDay[] = [];
  const index = new Map<string, SignupDay>();
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(today.getTime() - i * 86_400_000).toISOString().slice(0, 10);
    const entry = { day, count: 0 };
    out.push(entry);
    index.set(day, entry);
  }
  for (const user of users) {
    const entry = index.get(user.created_at.slice(0, 10));
    if (entry) entry.count++;
  }
  return out;
}
