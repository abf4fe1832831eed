import type { Conversation } from '@engage/http-contract/conversations';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { isVapiApiError, type ConversationsApi } from '../api/conversations-api';
import {
  ConversationsApiContext,
  useAssistantNames,
  useConversationList,
  useUnansweredQuestions,
} from '../hooks/queries';
import { cleanFilters, EMPTY_FILTERS, filtersProblem, type Filters } from '../lib/filters';
import { ConversationDetail } from './conversation-detail';
import { ConversationFilters } from './conversation-filters';
import { ConversationList } from './conversation-list';
import { ExportCsv } from './export-csv';
import { LoadFailed } from './load-failed';
import { OperatorNeeded } from './operator-needed';
import { StatusLine } from './status-line';
import { Trends } from './trends';
import { UnansweredTab } from './unanswered-tab';

export interface ConversationsPageProps {
  api: ConversationsApi;
  /** The session's `app_metadata.role`: a hint for what to show; the server decides. */
  userRole: unknown;
  email?: string;
  /** The site's assistants (config.assistants); empty: every assistant of the provider account. */
  siteAssistantIds: readonly string[];
  /** The owner's UNANSWERED_PHRASES (config.json), else the built-in list. */
}

const mayRead = (role: unknown) => role === 'operator' || role === 'admin';

/** The proxy's answer to a user without the role (the role was taken away since signing in). */
const isOperatorRequired = (error: unknown) =>
  isVapiApiError(error) &&
  error.status === 403 &&
  (error.body as { error?: unknown } | null)?.error === 'operator_required';

function ConversationsTab({
  siteAssistantIds,
  assistantName,
  assistants,
  onForbidden,
}: {
  siteAssistantIds: readonly string[];
  assistantName: (id: string | null) => string;
  assistants: { id: string; name: string }[];
  onForbidden: () => void;
}) {
  const [draft, setDraft] = useState<Filters>(EMPTY_FILTERS);
  // A range that cannot be keeps the last one that could.
  const [applied, setApplied] = useState<Filters>(EMPTY_FILTERS);
  const filters = { ...applied, search: cleanFilters(draft).search };
  const { query, loaded, shown } = useConversationList(filters, siteAssistantIds, true);
  const [open, setOpen] = useState<Conversation | null>(null);
  const [status, setStatus] = useState({ text: '', busy: false });
  const statusLine = useRef<HTMLParagraphElement>(null);
  const forbidden = query.isError && isOperatorRequired(query.error);
  useEffect(() => {
    if (forbidden) onForbidden();
  }, [forbidden, onForbidden]);

  const loadingText = query.isPending
    ? 'Loading conversations…'
    : query.isFetchingNextPage
      ? 'Loading more conversations…'
      : status.text ||
        (filters.search
          ? `${shown.length} of ${loaded.length} loaded conversations match "${filters.search}".`
          : `${loaded.length} conversation${loaded.length === 1 ? '' : 's'} shown.`);

  return (
    <div className="grid gap-4">
      <ConversationFilters
        filters={draft}
        assistants={assistants}
        onChange={(next) => {
          setDraft(next);
          setStatus({ text: '', busy: false });
          if (!filtersProblem(next)) setApplied(cleanFilters(next));
        }}
      />
      <div className="flex flex-wrap items-start justify-between gap-2">
        <StatusLine ref={statusLine} busy={query.isFetching || status.busy} text={loadingText} />
        <ExportCsv
          filters={filters}
          keep={(c) => siteAssistantIds.length === 0 || siteAssistantIds.includes(c.assistantId ?? '')}
          assistantName={assistantName}
          onStatus={(text, busy) => setStatus({ text, busy })}
        />
      </div>
      {query.isError && !isOperatorRequired(query.error) && (
        <LoadFailed what="The conversations" error={query.error} onRetry={() => void query.refetch()} />
      )}
      {query.isSuccess && shown.length === 0 && (
        <p className="text-sm">
          {loaded.length === 0
            ? 'No conversations yet for these filters.'
            : 'No loaded conversation matches the search. Load more to search further back.'}
        </p>
      )}
      <ConversationList conversations={shown} assistantName={assistantName} onOpen={setOpen} />
      {query.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={query.isFetchingNextPage}
          aria-busy={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
      <ConversationDetail
        conversation={open}
        assistantName={assistantName}
        onClose={() => setOpen(null)}
        onDeleted={() => {
          setOpen(null);
          setStatus({ text: 'The conversation was deleted.', busy: false });
          // Its row (which opened the dialog) is gone: keyboard users go on from the announcement.
          requestAnimationFrame(() => statusLine.current?.focus());
        }}
      />
    </div>
  );
}

function Conversations({
  siteAssistantIds,
  onForbidden,
}: {
  siteAssistantIds: readonly string[];
  onForbidden: () => void;
}) {
  const names = useAssistantNames();
  const [tab, setTab] = useState('conversations');
  // Scanned as the page opens, for the tab's count (the server keeps its scan a minute).
  const unanswered = useUnansweredQuestions(true);
  const unansweredCount = unanswered.data?.questions.length;
  const byId = useMemo(() => new Map((names.data ?? []).map((a) => [a.id, a.name])), [names.data]);
  const assistantName = (id: string | null) => (id ? (byId.get(id) ?? id) : 'Inline assistant');
  const assistants = (siteAssistantIds.length ? siteAssistantIds : [...byId.keys()]).map((id) => ({
    id,
    name: byId.get(id) ?? id,
  }));
  return (
    <main className="mx-auto grid max-w-5xl gap-4 px-4 py-8">
      <h1 className="text-2xl font-semibold">Conversations</h1>
      <p className="text-sm text-muted-foreground">
        What visitors asked the site&apos;s assistants, by voice and by chat, newest first.
      </p>
      <Trends />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="h-auto max-w-full flex-wrap">
          <TabsTrigger value="conversations">Conversations</TabsTrigger>
          <TabsTrigger value="unanswered">
            Unanswered questions
            {unansweredCount !== undefined && ' '}
            {unansweredCount !== undefined && (
              <span className="ml-1 rounded-full bg-muted px-1.5 py-0.5 text-xs font-medium tabular-nums">
                {unansweredCount}
              </span>
            )}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="conversations">
          <ConversationsTab
            siteAssistantIds={siteAssistantIds}
            assistantName={assistantName}
            assistants={assistants}
            onForbidden={onForbidden}
          />
        </TabsContent>
        <TabsContent value="unanswered">
          <UnansweredTab assistantName={assistantName} active={tab === 'unanswered'} />
        </TabsContent>
      </Tabs>
    </main>
  );
}

/**
 * /conversations: operators and admins read what visitors asked and answer what the assistants
 * could not; anyone else sees "Operator access needed" and no conversation (the server refuses
 * them the provider's conversation routes all the same).
 */
export function ConversationsPage({ api, userRole, email, siteAssistantIds }: ConversationsPageProps) {
  const [forbidden, setForbidden] = useState(false);
  if (forbidden || !mayRead(userRole)) return <OperatorNeeded email={email} />;
  return (
    <ConversationsApiContext.Provider value={api}>
      <Conversations siteAssistantIds={siteAssistantIds} onForbidden={() => setForbidden(true)} />
    </ConversationsApiContext.Provider>
  );
}
