import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { ClientInput } from '../lib/oauth-client-input';

/** The form's refusal: its words, and which field it marks (only that one). */
export type FieldProblem = { field: 'name' | 'uris' | null; message: string } | null;

/** What a refusal of `parseClientInput` marks. */
export const problemOf = (input: Extract<ClientInput, { ok: false }>): FieldProblem => ({
  field: input.field,
  message: input.message,
});

/** A client's name and redirect URIs, for the create form and an edit alike. */
export function OAuthClientFields({
  id,
  name,
  uris,
  onName,
  onUris,
  problem,
}: {
  id: string;
  name: string;
  uris: string;
  onName: (value: string) => void;
  onUris: (value: string) => void;
  problem: FieldProblem;
}) {
  const marked = (field: 'name' | 'uris') =>
    problem?.field === field
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-problem` }
      : { 'aria-describedby': undefined };
  return (
    <>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-name`}>Client name</Label>
        <Input
          id={`${id}-name`}
          value={name}
          maxLength={200}
          onChange={(e) => onName(e.target.value)}
          {...marked('name')}
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-uris`}>Redirect URIs (one per line)</Label>
        <Textarea
          id={`${id}-uris`}
          value={uris}
          rows={2}
          onChange={(e) => onUris(e.target.value)}
          placeholder="https://app.example.com/callback"
          {...marked('uris')}
        />
      </div>
    </>
  );
}

/** The refusal under the form, where the user looks; `id` as given to OAuthClientFields. */
export function FieldProblemText({ id, problem }: { id: string; problem: FieldProblem }) {
  if (!problem) return null;
  return (
    <p id={`${id}-problem`} role="alert" className="text-sm break-words text-destructive">
      {problem.message}
    </p>
  );
}
