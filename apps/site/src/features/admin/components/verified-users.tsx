import { CheckCircle2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate, formatDateTime } from '../lib/format';
import { BannedBadge } from './banned-badge';
import { DeleteUserButton } from './delete-user-button';
import { RoleSelect } from './role-select';
import { UserActionsMenu } from './user-actions-menu';
import { UserControls, UserList, UserSummary, usePagedUsers } from './user-list';

/** Verified Users: Verified badge, verified date, last login when there is one, role, Delete. */
export function VerifiedUsers({ search, currentUserId }: { search: string; currentUserId: string | null }) {
  const list = usePagedUsers('verified', search);
  const { query, total } = list;

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
        <UserList list={list} label="Verified users" empty="No verified users found">
          {(user) => (
            <>
              <UserSummary
                email={user.email}
                badges={
                  <>
                    <Badge variant="success">
                      <CheckCircle2 aria-hidden /> Verified
                    </Badge>
                    {user.is_admin && <Badge variant="outline">Admin</Badge>}
                    <BannedBadge user={user} />
                  </>
                }
                details={
                  <>
                    Verified {formatDate(user.email_confirmed_at as string)}
                    {user.last_sign_in_at && <> · Last login {formatDateTime(user.last_sign_in_at)}</>}
                  </>
                }
              />
              <UserControls>
                <RoleSelect user={user} isSelf={user.id === currentUserId} />
                <UserActionsMenu user={user} isSelf={user.id === currentUserId} />
                <DeleteUserButton
                  user={user}
                  isSelf={user.id === currentUserId}
                  returnFocusTo="verified-title"
                />
              </UserControls>
            </>
          )}
        </UserList>
      </CardContent>
    </Card>
  );
}
