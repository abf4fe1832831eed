import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { EngageApiError, type OAuthClient } from '../api/client';
import { useDeleteOAuthClient, useRegenerateOAuthClientSecret, useUpdateOAuthClient } from '../api/queries';
import { formatDateTime } from '../lib/format';
import { parseClientInput } from '../lib/oauth-client-input';
import { FieldProblemText, OAuthClientFields, problemOf, type FieldProblem } from './oauth-client-fields';

export const nameOf = (c: OAuthClient) => c.client_name || c.client_id;

/** The server's refusal, marking the field it names (its words quote a bad URI whole). */
export const serverProblem = (error: unknown): FieldProblem => {
  const message = error instanceof Error ? error.message : 'The client could not be saved';
  const named = error instanceof EngageApiError ? error.field : null;
  const field = named?.startsWith('redirect_uris') ? 'uris' : named === 'client_name' ? 'name' : null;
  return { field, message };
};

function EditClient({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const id = useId();
  const update = useUpdateOAuthClient();
  const [name, setName] = useState(client.client_name ?? '');
  const [uris, setUris] = useState(client.redirect_uris.join('\n'));
  const [problem, setProblem] = useState<FieldProblem>(null);
  async function save(event: FormEvent) {
    event.preventDefault();
    const input = parseClientInput(name, uris);
    if (!input.ok) return setProblem(problemOf(input));
    setProblem(null);
    try {
      await update.mutateAsync({
        id: client.client_id,
        client_name: input.name,
        redirect_uris: input.redirectUris,
      });
      toast.success(`Saved ${input.name}`);
      onClose();
    } catch (error) {
      setProblem(serverProblem(error));
    }
  }
  return (
    <form
      onSubmit={(e) => void save(e)}
      noValidate
      aria-label={`Edit ${nameOf(client)}`}
      className="grid gap-3"
    >
      <OAuthClientFields
        id={id}
        name={name}
        uris={uris}
        onName={setName}
        onUris={setUris}
        problem={problem}
      />
      <FieldProblemText id={id} problem={problem} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={update.isPending} aria-busy={update.isPending}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * One registered client: its name, type, id and redirects, and what an admin may do with it: edit
 * its name and redirect URIs, give a confidential client a new secret (shown once, by `onSecret`;
 * the old one stops working), or delete it.
 */
export function OAuthClientRow({
  client,
  onDeleted,
  onSecret,
}: {
  client: OAuthClient;
  onDeleted: () => void;
  onSecret: (client: OAuthClient) => void;
}) {
  const [editing, setEditing] = useState(false);
  const remove = useDeleteOAuthClient();
  const regenerate = useRegenerateOAuthClientSecret();
  const name = nameOf(client);

  async function deleteIt() {
    try {
      await remove.mutateAsync(client.client_id);
      toast.success(`Deleted ${name}`);
    } catch (error) {
      toast.error('The client could not be deleted', {
        description: error instanceof Error ? error.message : undefined,
      });
    }
  }
  async function renew() {
    try {
      onSecret(await regenerate.mutateAsync(client.client_id));
    } catch (error) {
      toast.error('No new secret was made', {
        description: error instanceof Error ? error.message : undefined,
      });
    }
  }

  if (editing) return <EditClient client={client} onClose={() => setEditing(false)} />;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium break-words">
          {name} <span className="text-sm font-normal text-muted-foreground">({client.client_type})</span>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-label={`Edit ${name}`} onClick={() => setEditing(true)}>
            <Pencil aria-hidden /> Edit
          </Button>
          {client.client_type === 'confidential' && (
            <ConfirmRemove
              trigger={
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`New secret for ${name}`}
                  disabled={regenerate.isPending}
                >
                  <KeyRound aria-hidden /> New secret
                </Button>
              }
              title="Make a new client secret"
              description={
                <>
                  Make a new secret for <span className="font-medium text-foreground">{name}</span>? The
                  current one stops working at once: apps using it must be given the new one.
                </>
              }
              confirmLabel="Make a new secret"
              onConfirm={renew}
            />
          )}
          <ConfirmRemove
            trigger={
              <Button variant="outline" size="sm" aria-label={`Delete ${name}`} disabled={remove.isPending}>
                <Trash2 aria-hidden /> Delete
              </Button>
            }
            title="Delete OAuth client"
            description={
              <>
                Delete <span className="font-medium text-foreground">{name}</span>? Apps using it can no
                longer sign anyone in. This cannot be undone.
              </>
            }
            confirmLabel="Delete"
            onConfirm={deleteIt}
            focusAfter={onDeleted}
          />
        </div>
      </div>
      <p className="text-sm break-all text-muted-foreground">
        Client ID <code>{client.client_id}</code> · created{' '}
        <time dateTime={client.created_at}>{formatDateTime(client.created_at)}</time>
      </p>
      <p className="text-sm break-all">Redirects to {client.redirect_uris.join(', ')}</p>
    </>
  );
}
