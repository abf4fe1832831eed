import { useState, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
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

/** A users card's body: the fetch error, loading, the empty text or one row per user; then its Pager. */
export function UserList({
  list: { query, pages, setPages, users, total },
  label,
  empty,
  rowClassName,
  children,
}: {
  list: ReturnType<typeof usePagedUsers>;
  /** Names the list and its pages ("Verified users"). */
  label: string;
  empty: ReactNode;
  rowClassName?: string;
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
            <li key={user.id} className={cn('flex items-center gap-3 py-2', rowClassName)}>
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
