import {
  matchesSearch,
  toConversations,
  visitorTookPart,
  type Conversation,
} from '@engage/http-contract/conversations';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { ConversationsApi } from '../api/conversations-api';
import type { Filters } from '../lib/filters';

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
  unanswered: ['conversations', 'unanswered'] as const,
  answerRequests: ['conversations', 'answer-requests'] as const,
  stats: (days: number) => ['conversations', 'stats', days] as const,
};

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
    ).filter((c) => ofSite(siteAssistantIds)(c) && visitorTookPart(c));
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

/**
 * The questions the site's assistants could not answer, newest first, less those answered since:
 * the server scans (and keeps its scan a minute, dropped when an answer is saved or a conversation
 * deleted), so opening the tab again costs the provider nothing.
 */
export function useUnansweredQuestions(enabled: boolean) {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.unanswered,
    enabled,
    queryFn: ({ signal }) => api.unansweredQuestions(signal),
    // The page's count and the tab read one scan; the server keeps its own a minute anyway, and a
    // saved answer or a deleted conversation asks again at once (invalidated).
    staleTime: 30_000,
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

export function useDismissQuestion() {
  const api = useConversationsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { assistantId: string; question: string }) =>
      api.dismissQuestion(input.assistantId, input.question),
    onSuccess: () => client.invalidateQueries({ queryKey: conversationKeys.unanswered }),
  });
}

export function useSaveAnswer() {
  const api = useConversationsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { assistantId: string; question: string; answer: string }) =>
      api.saveAnswer(input.assistantId, input.question, input.answer),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: conversationKeys.unanswered }),
        client.invalidateQueries({ queryKey: conversationKeys.answerRequests }),
        // The answers mailed and the visitors waiting are among the trends' figures.
        client.invalidateQueries({ queryKey: ['conversations', 'stats'] }),
      ]),
  });
}

/** The visitors waiting for an answer by mail, and the answers mailed to them. */
export function useAnswerRequests(enabled: boolean) {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.answerRequests,
    enabled,
    queryFn: ({ signal }) => api.answerRequests(signal),
    staleTime: 30_000,
  });
}

/** A failed answer mail, sent again. */
export function useSendAnswerAgain() {
  const api = useConversationsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.sendAnswerAgain(id),
    // Sent or not, the list says how it stands now.
    onSettled: () => client.invalidateQueries({ queryKey: conversationKeys.answerRequests }),
  });
}

/** The dashboard's trends for a period; the previous period's stay shown while the next loads. */
export function useConversationStats(days: number) {
  const api = useConversationsApi();
  return useQuery({
    queryKey: conversationKeys.stats(days),
    queryFn: ({ signal }) => api.stats(days, signal),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    // The server is still reading the conversations (its first read of a large account): ask again.
    refetchInterval: (query) => (query.state.data?.indexedAt === null ? 3_000 : false),
  });
}
