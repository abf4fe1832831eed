import { Copy, KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { EngageApiError, type OAuthClient } from '../api/client';
import { useCreateOAuthClient, useOAuthClients } from '../api/queries';
import { parseClientInput } from '../lib/oauth-client-input';
import { FieldProblemText, OAuthClientFields, problemOf, type FieldProblem } from './oauth-client-fields';
import { nameOf, OAuthClientRow, serverProblem } from './oauth-client-row';

/** A secret just made (a client created, or given a new one): shown here once, gone when dismissed. */
function NewSecret({
  client,
  renewed,
  onDone,
}: {
  client: OAuthClient;
  renewed: boolean;
  onDone: () => void;
}) {
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
            {renewed ? `A new secret for ${nameOf(client)}` : `Created ${nameOf(client)}`}. Copy its secret
            now: it will not be shown again.
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
 * OAuth clients of the embedded auth (/api/admin/oauth-clients): register one with its redirect URIs,
 * see its secret once, edit it, give it a new secret, delete it.
 */
export function OAuthClientsPanel() {
  const id = useId();
  const clients = useOAuthClients();
  const create = useCreateOAuthClient();
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [type, setType] = useState<'confidential' | 'public'>('confidential');
  const [problem, setProblem] = useState<FieldProblem>(null);
  const [secret, setSecret] = useState<{ client: OAuthClient; renewed: boolean } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = parseClientInput(name, uris);
    if (!input.ok) return setProblem(problemOf(input));
    setProblem(null);
    try {
      const client = await create.mutateAsync({
        client_name: input.name,
        redirect_uris: input.redirectUris,
        client_type: type,
      });
      setSecret({ client, renewed: false });
      setName('');
      setUris('');
    } catch (error) {
      setProblem(serverProblem(error));
    }
  }

  const hosted = clients.error instanceof EngageApiError && clients.error.status === 404;
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
              <OAuthClientFields
                id={id}
                name={name}
                uris={uris}
                onName={setName}
                onUris={setUris}
                problem={problem}
              />
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
              <FieldProblemText id={id} problem={problem} />
            </form>
            <div aria-live="polite">
              {secret && (
                <NewSecret client={secret.client} renewed={secret.renewed} onDone={() => setSecret(null)} />
              )}
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
                    <OAuthClientRow
                      client={c}
                      onSecret={(client) => setSecret({ client, renewed: true })}
                      onDeleted={() => {
                        if (secret?.client.client_id === c.client_id) setSecret(null);
                        // The row and its button are gone: keyboard users land on the panel's heading.
                        document.getElementById(`${id}-title`)?.focus();
                      }}
                    />
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
