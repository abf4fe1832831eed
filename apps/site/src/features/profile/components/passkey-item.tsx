import type { PasskeyListItem } from '@supabase/auth-js';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { FormField } from '@/components/ui/form-field';

const when = (iso: string | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

export const passkeyName = (p: PasskeyListItem) => p.friendly_name || 'Unnamed passkey';

/** One passkey: its name and dates, a rename form on demand, and removal behind a confirmation. */
export function PasskeyItem({
  passkey,
  busy,
  onRename,
  onRemove,
}: {
  passkey: PasskeyListItem;
  busy: boolean;
  onRename: (id: string, name: string) => Promise<void>;
  onRemove: (id: string) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.friendly_name ?? '');
  const label = passkeyName(passkey);

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    void onRename(passkey.id, name.trim()).then(() => setEditing(false));
  };

  return (
    <li className="grid gap-2 rounded-md border border-border px-3 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid text-sm">
          <span className="font-medium break-all">{label}</span>
          <span className="text-muted-foreground">
            Added {when(passkey.created_at)} · Last used {when(passkey.last_used_at)}
          </span>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            aria-expanded={editing}
            aria-label={`Rename ${label}`}
            onClick={() => setEditing((v) => !v)}
          >
            Rename
          </Button>
          <ConfirmRemove
            trigger={
              <Button variant="outline" size="sm" disabled={busy} aria-label={`Remove ${label}`}>
                Remove
              </Button>
            }
            title="Remove this passkey?"
            description={
              <>
                “{label}” will no longer sign you in. Remove it from your device or password manager as well.
              </>
            }
            confirmLabel="Remove"
            onConfirm={() => onRemove(passkey.id)}
          />
        </div>
      </div>
      {editing && (
        <form className="flex flex-wrap items-end gap-2" onSubmit={save} aria-label={`Rename ${label}`}>
          <FormField
            label="New name"
            value={name}
            maxLength={120}
            required
            fieldClassName="min-w-0 flex-1"
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" size="sm" disabled={busy || !name.trim()}>
            Save
          </Button>
        </form>
      )}
    </li>
  );
}
