import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Textarea } from '@/components/ui/textarea';
import { useAssistants } from '../hooks/use-assistants';
import type { KbImport } from '../hooks/use-kb-import';
import { DEFAULT_KB_DESCRIPTION, DEFAULT_KB_NAME } from '../lib/constants';
import { MAX_FUNCTION_NAME_LENGTH, functionNameProblem, toFunctionName } from '../lib/function-name';
import { ExistingKnowledge } from './existing-knowledge';

const defaultHint = (value: string) => `${value} (default)`;

type Kind = 'query-tool' | 'v2';

/** What to create: a query tool over the files, or a v2 knowledge base. */
/** The two kinds the tool creates, as the choice shows them. */
const KINDS: readonly { value: Kind; label: string; description: string }[] = [
  {
    value: 'query-tool',
    label: 'Query tool',
    description: 'A query tool over the files, attached to the assistant.',
  },
  {
    value: 'v2',
    label: 'v2 knowledge base',
    description:
      'The provider indexes the files into a knowledge base and attaches the search tool it comes with ' +
      'once every file is ready.',
  },
];

function KindChoice({
  kind,
  onChange,
  disabled,
}: {
  kind: Kind;
  onChange: (kind: Kind) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">Create as</legend>
      {KINDS.map((option) => (
        <label key={option.value} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="kb-kind"
            value={option.value}
            checked={kind === option.value}
            onChange={() => onChange(option.value)}
            className="mt-1"
          />
          <span>
            {option.label}
            <span className="block text-muted-foreground">{option.description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** The knowledge bases this browser created, newest last. */
function CreatedKnowledgeBases({ knowledgeBases }: { knowledgeBases: KbImport['state']['knowledgeBases'] }) {
  return (
    <section aria-labelledby="kb-created-heading" className="flex flex-col gap-2">
      <h2 id="kb-created-heading" className="text-base font-semibold">
        Created knowledge bases ({knowledgeBases.length})
      </h2>
      {knowledgeBases.length === 0 ? (
        <p className="text-sm text-muted-foreground">None yet.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {knowledgeBases.map((k) => (
            <li key={k.toolId} className="rounded-md border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{k.name}</span>
                <Badge variant="secondary">{k.fileIds.length} file(s)</Badge>
                <Badge variant="outline">
                  {k.kind === 'v2' ? `v2 knowledge base ${k.knowledgeBaseId ?? ''}` : 'query tool'}
                </Badge>
                <Badge variant="outline">tool {k.toolId}</Badge>
              </div>
              <p className="text-muted-foreground">
                {k.description} · attached to {k.assistantName} · {new Date(k.createdAt).toLocaleString()}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ImportTab({ kb }: { kb: KbImport }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<Kind>('query-tool');
  const assistants = useAssistants(kb);
  const nameProblem = kind === 'query-tool' && name.trim() ? functionNameProblem(name.trim()) : null;
  const done = kb.state.uploaded.filter((f) => f.status === 'done');
  const { creating, knowledgeBases, indexing } = kb.state;
  const assistantName = assistants.data?.find((a) => a.id === kb.assistantId)?.name;
  const create = () => {
    void kb.controller.createKnowledgeBase({
      name,
      description,
      assistantId: kb.assistantId,
      assistantName,
      kind,
    });
  };
  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <KindChoice kind={kind} onChange={setKind} disabled={creating} />
        <div className="flex flex-col gap-2">
          <Label htmlFor="kb-name">Knowledge base name</Label>
          <Input
            id="kb-name"
            value={name}
            maxLength={kind === 'v2' ? 80 : MAX_FUNCTION_NAME_LENGTH}
            aria-invalid={nameProblem !== null}
            // The default reads as a hint, not as something typed: left empty, it is what is used.
            placeholder={defaultHint(DEFAULT_KB_NAME)}
            className="placeholder:italic"
            onChange={(e) => setName(e.target.value)}
            aria-describedby="kb-name-note"
          />
          {kind === 'query-tool' ? (
            <p id="kb-name-note" className="text-sm text-muted-foreground">
              Tool function name:{' '}
              <code className="break-all">{toFunctionName(name.trim() || DEFAULT_KB_NAME)}</code> (at most{' '}
              {MAX_FUNCTION_NAME_LENGTH} characters; others than letters and digits become '-').
              {nameProblem && <span className="block text-destructive">{nameProblem}</span>}
            </p>
          ) : (
            <p id="kb-name-note" className="text-sm text-muted-foreground">
              At most 80 characters.
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="kb-description">Description</Label>
          <Textarea
            id="kb-description"
            value={description}
            placeholder={defaultHint(DEFAULT_KB_DESCRIPTION)}
            className="placeholder:italic"
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <p className="text-sm text-muted-foreground">
          {done.length} processed file(s) will be included; files still processing or failed are left out.
        </p>
        {/* Said again here, where the button is: the assistant is chosen on the Setup tab. */}
        <p className="text-sm" data-testid="kb-attach-to">
          {kb.assistantId ? (
            <>
              It will be attached to <strong>{assistantName ?? kb.assistantId}</strong> (chosen on the Setup
              tab).
            </>
          ) : (
            'Choose the assistant to attach it to on the Setup tab.'
          )}
        </p>
        <Button type="submit" disabled={creating} aria-busy={creating} className="w-fit">
          {creating && <Loader2Icon className="animate-spin" aria-hidden />}
          {creating
            ? 'Creating knowledge base…'
            : kind === 'v2'
              ? 'Create v2 knowledge base'
              : 'Create knowledge base'}
        </Button>
        {indexing && (
          <div className="flex flex-col gap-1">
            <p className="text-sm" id="kb-indexing-label">
              Indexing files: {indexing.settled} of {indexing.total} finished
            </p>
            <Progress
              value={indexing.total === 0 ? 0 : (indexing.settled / indexing.total) * 100}
              aria-labelledby="kb-indexing-label"
            />
          </div>
        )}
      </form>
      <CreatedKnowledgeBases knowledgeBases={knowledgeBases} />
      <ExistingKnowledge kb={kb} />
    </div>
  );
}
