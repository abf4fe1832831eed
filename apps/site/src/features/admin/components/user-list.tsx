import { useState, type ReactNode } from 'react';
import type { AdminUser, UserStatus } from '../api/client';
import { PAGE_SIZE, useUsersPage } from '../api/queries';
import { FetchError } from './fetch-error';
import { firstPage, nextPage, Pager, previousPage } from './pager';

/** One status's users a page at a time: the query and the cursor stack behind its Pager. */
export function usePagedUsers(status: UserStatus, search: string) {
  const [pages, setPages] = useState(firstPage);
  const query = useUsersPage(status, search, pages.cursors[pages.page] ?? null);
  return { query, pages, setPages, users: query.data?.users ?? [], total: query.data?.total ?? 0 };
}

/**
 * A row's user: the address (wrapping anywhere rather than widening the row) with its badges, which
 * wrap below it when there is no room beside it; and a line of details. On a phone it takes the row's
 * first line and the controls wrap below it.
 */
export function UserSummary({
  email,
  badges,
  details,
}: {
  email: string;
  badges?: ReactNode;
  details: ReactNode;
}) {
  return (
    <div className="min-w-0 grow basis-48">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
        <span className="min-w-0 [overflow-wrap:anywhere]">{email}</span>
        {badges}
      </p>
      <p className="text-xs text-muted-foreground">{details}</p>
    </div>
  );
}

/** A row's controls, kept together and to the right (on a phone, on their own line). */
export function UserControls({ children }: { children: ReactNode }) {
  return <div className="ml-auto flex shrink-0 flex-wrap items-center justify-end gap-2">{children}</div>;
}

/** A users card's body: the fetch error, loading, the empty text or one row per user; then its Pager. */
export function UserList({
  list: { query, pages, setPages, users, total },
  label,
  empty,
  children,
}: {
  list: ReturnType<typeof usePagedUsers>;
  /** Names the list and its pages ("Verified users"). */
  label: string;
  empty: ReactNode;
  /** A row's content. */
  children: (user: AdminUser) => ReactNode;
}) {
  return (
    <>
      {query.isError ? (
        <FetchError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          Loading users…
        </p>
      ) : users.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="divide-y divide-border" aria-label={label}>
          {users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2">
              {children(user)}
            </li>
          ))}
        </ul>
      )}
      <Pager
        label={label}
        page={pages.page}
        pageSize={PAGE_SIZE}
        shown={users.length}
        total={total}
        hasNext={Boolean(query.data?.nextCursor)}
        onPrevious={() => setPages(previousPage)}
        onNext={() => query.data?.nextCursor && setPages((p) => nextPage(p, query.data.nextCursor as string))}
      />
    </>
  );
}
