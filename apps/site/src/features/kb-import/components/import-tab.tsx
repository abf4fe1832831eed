import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_KB_DESCRIPTION, DEFAULT_KB_NAME } from '../lib/constants';
import { toFunctionName } from '../lib/function-name';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { KbImport } from './types';
import { useAssistants } from './use-assistants';

export function ImportTab({ kb }: { kb: KbImport }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const assistants = useAssistants(kb);
  const done = kb.state.uploaded.filter((f) => f.status === 'done');
  const { creating, knowledgeBases } = kb.state;
  const create = () => {
    const assistantName = assistants.data?.find((a) => a.id === kb.assistantId)?.name;
    void kb.controller.createKnowledgeBase({ name, description, assistantId: kb.assistantId, assistantName });
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
        <div className="flex flex-col gap-2">
          <Label htmlFor="kb-name">Knowledge base name</Label>
          <Input
            id="kb-name"
            value={name}
            placeholder={DEFAULT_KB_NAME}
            onChange={(e) => setName(e.target.value)}
            aria-describedby="kb-name-note"
          />
          <p id="kb-name-note" className="text-sm text-muted-foreground">
            Tool function name: <code>{toFunctionName(name.trim() || DEFAULT_KB_NAME)}</code>
          </p>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="kb-description">Description</Label>
          <Textarea
            id="kb-description"
            value={description}
            placeholder={DEFAULT_KB_DESCRIPTION}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <p className="text-sm text-muted-foreground">
          {done.length} processed file(s) will be included; files still processing or failed are left out.
        </p>
        <Button type="submit" disabled={creating} aria-busy={creating} className="w-fit">
          {creating && <Loader2Icon className="animate-spin" aria-hidden />}
          {creating ? 'Creating knowledge base…' : 'Create knowledge base'}
        </Button>
      </form>
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
    </div>
  );
}
