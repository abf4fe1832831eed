import type { UserStatus } from '@engage/http-contract';
import { CheckCircle2, Code2, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import type { AdminApi, AdminUser } from '../api/client';
import { useAdminApi } from '../api/queries';
import { formatDate, formatDateTime } from '../lib/format';
import { toasts } from '../lib/messages';
import { BannedBadge } from './banned-badge';
import { DeleteUserButton } from './delete-user-button';
import { RoleSelect } from './role-select';
import { UserActionsMenu } from './user-actions-menu';
import { UserControls, UserList, UserSummary, usePagedUsers } from './user-list';

/** The most ids one verification (and one generated statement) takes; the server's limit too. */
export const MAX_SELECTION = 1000;

/** The status filter's choices, with what the list is called under each. */
export const STATUS_FILTERS: readonly { value: UserStatus; label: string; empty: string }[] = [
  { value: 'all', label: 'All users', empty: 'No users found' },
  { value: 'unverified', label: 'Unverified', empty: 'No unverified users found' },
  { value: 'verified', label: 'Verified', empty: 'No verified users found' },
];

export interface UsersPanelProps {
  search: string;
  /** Which users the list shows; kept by the dashboard across searches. */
  status: UserStatus;
  onStatusChange: (next: UserStatus) => void;
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

const isVerified = (user: AdminUser) => Boolean(user.email_confirmed_at);

/** A row: its badges and dates by status, the checkbox for an unverified one, and the controls. */
function UserRow({
  user,
  props,
  toggle,
}: {
  user: AdminUser;
  props: UsersPanelProps;
  toggle: (id: string, on: boolean) => void;
}) {
  const self = user.id === props.currentUserId;
  const verified = isVerified(user);
  return (
    <>
      {!verified && (
        <Checkbox
          id={`select-${user.id}`}
          checked={props.selected.has(user.id)}
          onCheckedChange={(state) => toggle(user.id, state === true)}
          aria-label={`Select ${user.email}`}
        />
      )}
      <UserSummary
        email={user.email}
        badges={
          <>
            {verified ? (
              <Badge variant="success">
                <CheckCircle2 aria-hidden /> Verified
              </Badge>
            ) : (
              <Badge variant="secondary">Unverified</Badge>
            )}
            {user.is_admin && <Badge variant="outline">Admin</Badge>}
            <BannedBadge user={user} />
          </>
        }
        details={
          verified ? (
            <>
              Verified {formatDate(user.email_confirmed_at as string)}
              {user.last_sign_in_at && <> · Last login {formatDateTime(user.last_sign_in_at)}</>}
            </>
          ) : (
            <>Signed up {formatDateTime(user.created_at)}</>
          )
        }
      />
      <UserControls>
        <RoleSelect user={user} isSelf={self} />
        <UserActionsMenu user={user} isSelf={self} />
        <DeleteUserButton
          user={user}
          isSelf={self}
          onDeleted={(id) => props.selected.has(id) && toggle(id, false)}
          returnFocusTo="users-title"
        />
      </UserControls>
    </>
  );
}

/** Every unverified user the search finds, up to the most one selection may hold. */
async function unverifiedIds(api: AdminApi, search: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await api.listUsers({ status: 'unverified', search, cursor, limit: 200 });
    ids.push(...page.users.map((u) => u.id));
    cursor = page.nextCursor;
  } while (cursor && ids.length < MAX_SELECTION);
  return ids.slice(0, MAX_SELECTION);
}

/**
 * Users: one list with a status filter (all, unverified, verified) and its count; unverified users
 * can be selected (this page, or every match) and verified together, or get the SQL that would.
 */
export function UsersPanel(props: UsersPanelProps) {
  const { search, status, selected, onSelectedChange } = props;
  const filterId = useId();
  const filter = STATUS_FILTERS.find((f) => f.value === status) ?? STATUS_FILTERS[0]!;
  const list = usePagedUsers(status, search);
  const { query, users, total } = list;
  const selectable = users.filter((u) => !isVerified(u));

  const api = useAdminApi();
  // After selecting a page of several: offer every unverified match, as a single page would have had.
  const [offerAll, setOfferAll] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);

  function selectPage() {
    onSelectedChange(new Set([...selected, ...selectable.map((u) => u.id)]));
    setOfferAll(status === 'unverified' && total > users.length);
  }

  async function selectEveryMatch() {
    setSelectingAll(true);
    try {
      onSelectedChange(new Set(await unverifiedIds(api, search)));
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
    <Card aria-labelledby="users-title" aria-busy={query.isFetching}>
      <CardHeader>
        <CardTitle id="users-title" tabIndex={-1} className="outline-none">
          Users <span className="text-muted-foreground">({query.data ? total.toLocaleString() : '…'})</span>
        </CardTitle>
        <CardDescription>
          Every account, or only those whose email address is (or is not yet) confirmed.
        </CardDescription>
        <div className="flex flex-wrap items-center gap-2 pt-2">
          <label htmlFor={filterId} className="text-sm font-medium">
            Show
          </label>
          <select
            id={filterId}
            value={status}
            onChange={(e) => {
              props.onStatusChange(e.target.value as UserStatus);
              setOfferAll(false);
            }}
            className="h-8 rounded-md border border-border bg-background px-2 text-sm"
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
          <Button variant="outline" size="sm" disabled={selectable.length === 0} onClick={selectPage}>
            Select unverified on this page
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
              The {selectable.length} unverified users on this page are selected.
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
          label={filter.label}
          empty={search ? `${filter.empty.replace(/ found$/, '')} match the search` : filter.empty}
        >
          {(user) => <UserRow user={user} props={props} toggle={toggle} />}
        </UserList>
      </CardContent>
    </Card>
  );
}
