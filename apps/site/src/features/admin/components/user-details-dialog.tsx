import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { roleOf, type AdminUser } from '../api/client';
import { useUserDetail } from '../api/queries';
import { formatDateTime } from '../lib/format';
import { roleLabels } from '../lib/messages';
import { UserPasskeys } from './user-passkeys';

const when = (value: string | null | undefined, none: string) => (value ? formatDateTime(value) : none);

/** The details panel: id, dates, role, factors, passkeys, ban and metadata of one user (fetched when opened). */
export function UserDetailsDialog({
  user,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  user: AdminUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const detail = useUserDetail(user.id, open);
  const d = detail.data;
  const rows: [string, ReactNode][] = [
    ['User ID', <code className="text-xs break-all">{user.id}</code>],
    ['Created', when(user.created_at, '—')],
    ['Last sign-in', when(user.last_sign_in_at, 'Never')],
    ['Email confirmed', when(user.email_confirmed_at, 'Not confirmed')],
    ['Role', roleLabels[roleOf(user)]],
    ['Banned until', when(d?.banned_until ?? user.banned_until, 'Not banned')],
  ];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>User details</DialogTitle>
          <DialogDescription className="break-all">{user.email}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          <div className="contents">
            <dt className="text-muted-foreground">Factors</dt>
            <dd>
              {detail.isPending ? (
                'Loading…'
              ) : detail.isError ? (
                <span className="text-destructive">Could not load: {detail.error.message}</span>
              ) : d && d.factors.length ? (
                <ul>
                  {d.factors.map((f) => (
                    <li key={f.id}>
                      {f.friendly_name ?? f.factor_type} ({f.factor_type}, {f.status})
                    </li>
                  ))}
                </ul>
              ) : (
                'None'
              )}
            </dd>
          </div>
          <div className="contents">
            <dt className="text-muted-foreground">Passkeys</dt>
            <dd>
              <UserPasskeys userId={user.id} email={user.email} open={open} />
            </dd>
          </div>
        </dl>
        {d && (
          <div className="grid gap-2 text-sm">
            <h3 className="font-medium">App metadata</h3>
            <pre className="overflow-x-auto rounded-md bg-muted p-2 text-xs">
              {JSON.stringify(d.app_metadata, null, 2)}
            </pre>
            <h3 className="font-medium">User metadata</h3>
            <pre className="overflow-x-auto rounded-md bg-muted p-2 text-xs">
              {JSON.stringify(d.user_metadata, null, 2)}
            </pre>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
