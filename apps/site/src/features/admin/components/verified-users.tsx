import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PAGE_SIZE, useUsersPage } from '../api/queries';
import { formatDate, formatDateTime } from '../lib/format';
import { DeleteUserButton } from './delete-user-button';
import { FetchError } from './fetch-error';
import { firstPage, nextPage, Pager, previousPage } from './pager';

/** Verified Users (SPEC §2): Verified badge, verified date, last login when there is one, Delete. */
export function VerifiedUsers({ search, currentUserId }: { search: string; currentUserId: string | null }) {
  const [pages, setPages] = useState(firstPage);
  const query = useUsersPage('verified', search, pages.cursors[pages.page] ?? null);
  const users = query.data?.users ?? [];
  const total = query.data?.total ?? 0;

  return (
    <Card aria-labelledby="verified-title" aria-busy={query.isFetching}>
      <CardHeader>
        <CardTitle id="verified-title" tabIndex={-1} className="outline-none">
          Verified Users{' '}
          <span className="text-muted-foreground">({query.data ? total.toLocaleString() : '…'})</span>
        </CardTitle>
        <CardDescription>Accounts with a confirmed email address.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isError ? (
          <FetchError error={query.error} onRetry={() => void query.refetch()} />
        ) : query.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading users…
          </p>
        ) : users.length === 0 ? (
          <p className="text-sm text-muted-foreground">No verified users found</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="Verified users">
            {users.map((user) => (
              <li key={user.id} className="flex flex-wrap items-center gap-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 truncate font-medium">
                    {user.email}
                    <Badge variant="success">
                      <CheckCircle2 aria-hidden /> Verified
                    </Badge>
                    {user.is_admin && <Badge variant="outline">Admin</Badge>}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Verified {formatDate(user.email_confirmed_at as string)}
                    {user.last_sign_in_at && <> · Last login {formatDateTime(user.last_sign_in_at)}</>}
                  </p>
                </div>
                <DeleteUserButton
                  user={user}
                  isSelf={user.id === currentUserId}
                  returnFocusTo="verified-title"
                />
              </li>
            ))}
          </ul>
        )}
        <Pager
          label="Verified users"
          page={pages.page}
          pageSize={PAGE_SIZE}
          shown={users.length}
          total={total}
          hasNext={Boolean(query.data?.nextCursor)}
          onPrevious={() => setPages(previousPage)}
          onNext={() =>
            query.data?.nextCursor && setPages((p) => nextPage(p, query.data.nextCursor as string))
          }
        />
      </CardContent>
    </Card>
  );
}
