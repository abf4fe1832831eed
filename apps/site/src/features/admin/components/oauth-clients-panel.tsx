import { Copy, KeyRound, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { AdminApiError, type OAuthClient } from '../api/client';
import { useCreateOAuthClient, useDeleteOAuthClient, useOAuthClients } from '../api/queries';
import { formatDateTime } from '../lib/format';

const nameOf = (c: OAuthClient) => c.client_name || c.client_id;

function DeleteClientButton({ client, onDeleted }: { client: OAuthClient; onDeleted: () => void }) {
  const remove = useDeleteOAuthClient();
  // Failures are told in a toast, so the dialog always closes; focus then goes to the panel's
  // heading (onDeleted), not to the trigger that leaves with the client.
  async function confirm() {
    try {
      await remove.mutateAsync(client.client_id);
      toast.success(`Deleted ${nameOf(client)}`);
    } catch (error) {
      toast.error('The client could not be deleted', {
        description: error instanceof Error ? error.message : undefined,
      });
    }
  }
  return (
    <ConfirmRemove
      trigger={
        <Button
          variant="outline"
          size="sm"
          aria-label={`Delete ${nameOf(client)}`}
          disabled={remove.isPending}
        >
          <Trash2 aria-hidden /> Delete
        </Button>
      }
      title="Delete OAuth client"
      description={
        <>
          Delete <span className="font-medium text-foreground">{nameOf(client)}</span>? Apps using it can no
          longer sign anyone in. This cannot be undone.
        </>
      }
      confirmLabel="Delete"
      onConfirm={confirm}
      focusAfter={onDeleted}
    />
  );
}

/** The secret of a client just created: shown here once, gone when dismissed. */
function NewSecret({ client, onDone }: { client: OAuthClient; onDone: () => void }) {
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(client.client_secret ?? '');
      toast.success('Secret copied');
    } catch {
      toast.error('The secret could not be copied; select it and copy it instead');
    }
  }
  return (
    <div className="grid gap-2 rounded-md border border-border bg-muted/40 p-3">
      {client.client_secret ? (
        <>
          <p className="text-sm font-medium">
            Created {nameOf(client)}. Copy its secret now: it will not be shown again.
          </p>
          <Label htmlFor={`${id}-secret`}>Client secret of {nameOf(client)}</Label>
          <div className="flex flex-wrap gap-2">
            <Input
              id={`${id}-secret`}
              readOnly
              value={client.client_secret}
              className="min-w-0 flex-1 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
              <Copy aria-hidden /> Copy secret
            </Button>
          </div>
        </>
      ) : (
        <p className="text-sm font-medium">Created {nameOf(client)}. A public client has no secret.</p>
      )}
      <p className="text-sm break-all text-muted-foreground">
        Client ID: <code>{client.client_id}</code>
      </p>
      <Button type="button" size="sm" className="justify-self-start" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/**
 * OAuth clients of the embedded auth (GET/POST/DELETE /api/admin/oauth-clients): register one with
 * its redirect URIs, see its secret once, delete it.
 */
export function OAuthClientsPanel() {
  const id = useId();
  const clients = useOAuthClients();
  const create = useCreateOAuthClient();
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [type, setType] = useState<'confidential' | 'public'>('confidential');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<OAuthClient | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const redirectUris = uris
      .split(/\s+/)
      .map((u) => u.trim())
      .filter(Boolean);
    if (!name.trim() || redirectUris.length === 0) {
      setProblem('Please provide a name and at least one redirect URI');
      return;
    }
    setProblem(null);
    try {
      setCreated(
        await create.mutateAsync({
          client_name: name.trim(),
          redirect_uris: redirectUris,
          client_type: type,
        }),
      );
      setName('');
      setUris('');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The client could not be created');
    }
  }

  const hosted = clients.error instanceof AdminApiError && clients.error.status === 404;
  const list = clients.data ?? [];
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`} tabIndex={-1} className="flex items-center gap-2">
          <KeyRound className="size-5" aria-hidden /> OAuth clients
        </CardTitle>
        <CardDescription>
          Apps that may sign people in with this site&apos;s accounts. A confidential client&apos;s secret is
          shown once, when it is created.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {hosted ? (
          <p className="text-sm text-muted-foreground">
            With hosted Supabase, OAuth clients are managed in the Supabase project.
          </p>
        ) : (
          <>
            <form onSubmit={submit} noValidate aria-label="Create OAuth client" className="grid gap-3">
              <div className="grid gap-1">
                <Label htmlFor={`${id}-name`}>Client name</Label>
                <Input
                  id={`${id}-name`}
                  value={name}
                  maxLength={200}
                  onChange={(e) => setName(e.target.value)}
                  aria-invalid={problem !== null ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : undefined}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`${id}-uris`}>Redirect URIs (one per line)</Label>
                <Textarea
                  id={`${id}-uris`}
                  value={uris}
                  rows={2}
                  onChange={(e) => setUris(e.target.value)}
                  placeholder="https://app.example.com/callback"
                  aria-invalid={problem !== null ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : undefined}
                />
              </div>
              <fieldset className="grid gap-1">
                <legend className="text-sm font-medium">Client type</legend>
                <div className="flex flex-wrap gap-4 text-sm">
                  {(['confidential', 'public'] as const).map((t) => (
                    <label key={t} className="flex items-center gap-2">
                      <input
                        type="radio"
                        name={`${id}-type`}
                        checked={type === t}
                        onChange={() => setType(t)}
                      />
                      {t === 'confidential' ? 'Confidential (has a secret)' : 'Public (no secret, PKCE)'}
                    </label>
                  ))}
                </div>
              </fieldset>
              <Button type="submit" className="justify-self-start" disabled={create.isPending}>
                {create.isPending ? 'Creating…' : 'Create client'}
              </Button>
              {problem && (
                <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
                  {problem}
                </p>
              )}
            </form>
            <div aria-live="polite">
              {created && <NewSecret client={created} onDone={() => setCreated(null)} />}
            </div>
            {clients.isError ? (
              <p role="alert" className="text-sm text-destructive">
                The OAuth clients could not be loaded. {clients.error.message}
              </p>
            ) : list.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                {clients.isPending ? 'Loading…' : 'No OAuth clients yet'}
              </p>
            ) : (
              <ul aria-label="OAuth clients" className="grid gap-3">
                {list.map((c) => (
                  <li
                    key={c.client_id}
                    className="grid min-w-0 gap-1 border-b border-border pb-3 last:border-b-0 last:pb-0"
                  >
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="font-medium break-words">
                        {nameOf(c)}{' '}
                        <span className="text-sm font-normal text-muted-foreground">({c.client_type})</span>
                      </p>
                      <DeleteClientButton
                        client={c}
                        onDeleted={() => {
                          if (created?.client_id === c.client_id) setCreated(null);
                          // The row and its button are gone: keyboard users land on the panel's heading.
                          document.getElementById(`${id}-title`)?.focus();
                        }}
                      />
                    </div>
                    <p className="text-sm break-all text-muted-foreground">
                      Client ID <code>{c.client_id}</code> · created{' '}
                      <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
                    </p>
                    <p className="text-sm break-all">Redirects to {c.redirect_uris.join(', ')}</p>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
