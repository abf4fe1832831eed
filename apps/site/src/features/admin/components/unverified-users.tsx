import { Code2, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { useAdminApi } from '../api/queries';
import { formatDateTime } from '../lib/format';
import { toasts } from '../lib/messages';
import { BannedBadge } from './banned-badge';
import { DeleteUserButton } from './delete-user-button';
import { RoleSelect } from './role-select';
import { UserActionsMenu } from './user-actions-menu';
import { UserControls, UserList, UserSummary, usePagedUsers } from './user-list';

/** The most ids one verification (and one generated statement) takes; the server's limit too. */
export const MAX_SELECTION = 1000;

export interface UnverifiedUsersProps {
  search: string;
  currentUserId: string | null;
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  /**
   * Shows the SQL to run in the auth service's SQL editor; absent with the embedded auth, which has
   * none ("Generate SQL" led to a statement with nowhere to run it; Verify selected does it).
   */
  onGenerateSql?: (() => void) | undefined;
  onVerifySelected: () => void;
  verifying: boolean;
}

/** Unverified Users: count, Select All, Clear Selection (n), Generate SQL, per-row select and Delete. */
export function UnverifiedUsers(props: UnverifiedUsersProps) {
  const { search, selected, onSelectedChange } = props;
  const list = usePagedUsers('unverified', search);
  const { query, users, total } = list;

  const api = useAdminApi();
  // After Select All on one page of several: offer the whole list, as a single list would have had.
  const [offerAll, setOfferAll] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);

  function selectPage() {
    onSelectedChange(new Set([...selected, ...users.map((u) => u.id)]));
    setOfferAll(total > users.length);
  }

  async function selectEveryMatch() {
    setSelectingAll(true);
    try {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await api.listUsers({ status: 'unverified', search, cursor, limit: 200 });
        ids.push(...page.users.map((u) => u.id));
        cursor = page.nextCursor;
      } while (cursor && ids.length < MAX_SELECTION);
      onSelectedChange(new Set(ids.slice(0, MAX_SELECTION)));
      setOfferAll(false);
    } catch (error) {
      toast.error(toasts.fetchFailed, { description: error instanceof Error ? error.message : undefined });
    } finally {
      setSelectingAll(false);
    }
  }

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange(next);
  };

  return (
    <Card aria-labelledby="unverified-title" aria-busy={query.isFetching}>
      <CardHeader>
        <CardTitle id="unverified-title" tabIndex={-1} className="outline-none">
          Unverified Users{' '}
          <span className="text-muted-foreground">({query.data ? total.toLocaleString() : '…'})</span>
        </CardTitle>
        <CardDescription>Accounts whose email address has not been confirmed yet.</CardDescription>
        <div className="flex flex-wrap gap-2 pt-2">
          <Button variant="outline" size="sm" disabled={users.length === 0} onClick={selectPage}>
            Select All
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={selected.size === 0}
            onClick={() => {
              onSelectedChange(new Set());
              setOfferAll(false);
            }}
          >
            Clear Selection ({selected.size})
          </Button>
          {props.onGenerateSql && (
            <Button variant="outline" size="sm" disabled={selected.size === 0} onClick={props.onGenerateSql}>
              <Code2 aria-hidden /> Generate SQL
            </Button>
          )}
          <Button
            size="sm"
            disabled={selected.size === 0 || props.verifying}
            onClick={props.onVerifySelected}
          >
            <ShieldCheck aria-hidden /> Verify selected
          </Button>
        </div>
        <div aria-live="polite" className="text-sm">
          {offerAll && selected.size < Math.min(total, MAX_SELECTION) && (
            <p className="flex flex-wrap items-center gap-2 pt-1">
              The {users.length} users on this page are selected.
              <Button
                variant="link"
                size="sm"
                className="h-auto p-0 text-sky-800 underline underline-offset-4"
                disabled={selectingAll}
                onClick={selectEveryMatch}
              >
                {total > MAX_SELECTION
                  ? `Select the first ${MAX_SELECTION.toLocaleString()} of ${total.toLocaleString()} unverified users`
                  : `Select all ${total.toLocaleString()} unverified users`}
              </Button>
            </p>
          )}
        </div>
      </CardHeader>
      <CardContent>
        <UserList
          list={list}
          label="Unverified users"
          empty={search ? 'No unverified users match the search' : 'No unverified users found'}
        >
          {(user) => (
            <>
              <Checkbox
                id={`select-${user.id}`}
                checked={selected.has(user.id)}
                onCheckedChange={(state) => toggle(user.id, state === true)}
                aria-label={`Select ${user.email}`}
              />
              <UserSummary
                email={user.email}
                badges={<BannedBadge user={user} />}
                details={<>Signed up {formatDateTime(user.created_at)}</>}
              />
              <UserControls>
                <RoleSelect user={user} isSelf={user.id === props.currentUserId} />
                <UserActionsMenu user={user} isSelf={user.id === props.currentUserId} />
                <DeleteUserButton
                  user={user}
                  isSelf={user.id === props.currentUserId}
                  onDeleted={(id) => selected.has(id) && toggle(id, false)}
                  returnFocusTo="unverified-title"
                />
              </UserControls>
            </>
          )}
        </UserList>
      </CardContent>
    </Card>
  );
}
