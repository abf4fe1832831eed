import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import type { AdminPasskey } from '../api/client';
import { useDeletePasskey, useUserPasskeys } from '../api/queries';
import { formatDateTime } from '../lib/format';

const nameOf = (p: AdminPasskey) => p.friendly_name || 'Unnamed passkey';

/** A user's passkeys in the details panel: name, dates, and removal after a confirmation. */
export function UserPasskeys({ userId, email, open }: { userId: string; email: string; open: boolean }) {
  const passkeys = useUserPasskeys(userId, open);
  const remove = useDeletePasskey(userId);
  const [done, setDone] = useState<string | null>(null);

  if (passkeys.isPending) return <>Loading…</>;
  if (passkeys.isError)
    return <span className="text-destructive">Could not load: {passkeys.error.message}</span>;
  return (
    <div className="grid gap-2">
      {passkeys.data.length === 0 ? (
        'None'
      ) : (
        <ul className="grid gap-2" aria-label={`Passkeys of ${email}`}>
          {passkeys.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {nameOf(p)}{' '}
                <span className="text-muted-foreground">
                  (added {formatDateTime(p.created_at)}, last used{' '}
                  {p.last_used_at ? formatDateTime(p.last_used_at) : 'never'})
                </span>
              </span>
              <ConfirmRemove
                trigger={
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={remove.isPending}
                    aria-label={`Remove passkey ${nameOf(p)}`}
                  >
                    Remove
                  </Button>
                }
                title="Remove this passkey?"
                description={
                  <>
                    “{nameOf(p)}” will no longer sign {email} in. Their other sign-in methods stay.
                  </>
                }
                confirmLabel="Remove"
                onConfirm={async () => {
                  setDone(null);
                  const gone = await remove.mutateAsync(p.id);
                  setDone(`Removed the passkey “${nameOf(gone)}”.`);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{done && <span>{done}</span>}</div>
    </div>
  );
}
