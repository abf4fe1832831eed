import { Badge } from '@/components/ui/badge';
import type { KbImport } from '../hooks/use-kb-import';
import { knowledgeEntries } from '../lib/knowledge-in-use';

/**
 * The query tools and v2 knowledge bases the provider already holds that this browser did not
 * create (another browser, another person, the provider's dashboard), listed when the tool opens.
 */
export function ExistingKnowledge({ kb }: { kb: KbImport }) {
  const others = knowledgeEntries(kb.state.knowledgeBases, kb.state.existing).filter((k) => !k.created);
  return (
    <section aria-labelledby="kb-existing-heading" className="flex flex-col gap-2">
      <h2 id="kb-existing-heading" className="text-base font-semibold">
        Knowledge bases and query tools at {kb.providerName} ({others.length})
      </h2>
      {others.length === 0 ? (
        <p className="text-sm text-muted-foreground">None besides those created here.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {others.map((k) => (
            <li key={k.key} className="rounded-md border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-all">{k.name}</span>
                <Badge variant="secondary">{k.fileIds.length} file(s)</Badge>
                <Badge variant="outline">{k.kind === 'v2' ? 'v2 knowledge base' : 'query tool'}</Badge>
                <Badge variant="outline" className="break-all">
                  {k.key}
                </Badge>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
