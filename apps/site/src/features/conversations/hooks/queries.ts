import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { ConversationsApi } from '../api/conversations-api';
import { matchesSearch, toConversations, type Conversation } from '../lib/conversation';
import { EMPTY_FILTERS, type Filters } from '../lib/filters';
import { unansweredQuestions } from '../lib/unanswered';

export const ConversationsApiContext = createContext<ConversationsApi | null>(null);

export function useConversationsApi(): ConversationsApi {
  const api = useContext(ConversationsApiContext);
  if (!api) throw new Error('useConversationsApi must be used inside <ConversationsApiContext.Provider>');
  return api;
}

/** Every query of the page lives under this key: a deletion or an answer refreshes them all. */
export const conversationKeys = {
  all: ['conversations'] as const,
  list: (filters: Omit<Filters, 'search'>) => ['conversations', 'list', filters] as const,
  detail: (key: string) => ['conversations', 'detail', key] as const,
  assistants: ['conversations', 'assistants'] as const,
  unanswered: (assistantIds: readonly string[], phrases: readonly string[] | undefined) =>
    ['conversations', 'unanswered', assistantIds, phrases ?? null] as const,
};

/** Conversations the Unanswered tab reads: the newest, page by page, up to this many rows. */
export const UNANSWERED_SCAN_PAGES = 10;
export const UNANSWERED_PAGE_SIZE = 100;

/** Keeps only the site's assistants' conversations (all, when the site names none). */
const ofSite = (siteAssistantIds: readonly string[]) => (c: Conversation) =>
  siteAssistantIds.length === 0 || (c.assistantId !== null && siteAssistantIds.includes(c.assistantId));

/**
 * The list, page after page through the provider's pagination. The text search filters what has
 * been loaded (the provider has no text search); Load more searches further back.
 */
export function useConversationList(filters: Filters, siteAssistantIds: readonly string[], enabled: boolean) {
  const api = useConversationsApi();
  const { search, ...providerFilters } = filters;
  const query = useInfiniteQuery({
    queryKey: conversationKeys.list(providerFilters),
    queryFn: ({ pageParam, signal }) => api.listPage(filters, pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled,
  });
  const loaded = useMemo(() => {
    const pages = query.data?.pages ?? [];
    return toConversations(
      pages.flatMap((p) => p.calls),
      pages.flatMap((p) => p.chats),
    ).filter(ofSite(siteAssistantIds));
  }, [query.data, siteAssistantIds]);
  const shown = useMemo(() => loaded.filter((c) => matchesSearch(c, search)), [loaded, search]);
  return { query, loaded, shown };
}

export function useAssistantNames() {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.assistants,
    queryFn: ({ signal }) => api.listAssistants(signal),
    staleTime: 5 * 60_000,
  });
}

/** A conversation read whole (the list's copy meanwhile). */
export function useConversationDetail(conversation: Conversation | null) {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.detail(conversation?.key ?? ''),
    queryFn: ({ signal }) => api.getConversation(conversation!, signal),
    enabled: conversation !== null,
    placeholderData: conversation ?? undefined,
  });
}

/** The questions the site's assistants could not answer, newest first, less those answered since. */
export function useUnansweredQuestions(
  siteAssistantIds: readonly string[],
  phrases: readonly string[] | undefined,
  enabled: boolean,
) {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.unanswered(siteAssistantIds, phrases),
    enabled,
    queryFn: async ({ signal }) => {
      const calls = [];
      const chats = [];
      let cursor: string | null = null;
      for (let i = 0; i < UNANSWERED_SCAN_PAGES; i++) {
        const page = await api.listPage(EMPTY_FILTERS, cursor, { signal, pageSize: UNANSWERED_PAGE_SIZE });
        calls.push(...page.calls);
        chats.push(...page.chats);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      const conversations = toConversations(calls, chats).filter(ofSite(siteAssistantIds));
      const assistantIds = [
        ...new Set(conversations.map((c) => c.assistantId).filter((id): id is string => id !== null)),
      ];
      const answered = await api.answeredQuestions(assistantIds, signal);
      return {
        questions: unansweredQuestions(conversations, { answered, ...(phrases ? { phrases } : {}) }),
        scanned: conversations.length,
      };
    },
  });
}

export function useDeleteConversation() {
  const api = useConversationsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (conversation: Conversation) => api.deleteConversation(conversation),
    onSuccess: () => client.invalidateQueries({ queryKey: conversationKeys.all }),
  });
}

export function useSaveAnswer() {
  const api = useConversationsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { assistantId: string; question: string; answer: string }) =>
      api.saveAnswer(input.assistantId, input.question, input.answer),
    onSuccess: () => client.invalidateQueries({ queryKey: ['conversations', 'unanswered'] }),
  });
}
