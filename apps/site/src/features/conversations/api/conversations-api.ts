import {
  ANSWER_REQUESTS_ADMIN_PATH,
  answerRequestSendPath,
  ANSWERS_PATH,
  type AnswerRequestsAnswer,
  type AnswerRequestView,
  type ConversationStats,
  STATS_PATH,
  type SaveAnswerResult,
  DISMISSED_PATH,
  callSchema,
  chatSchema,
  parseItems,
  toConversations,
  UNANSWERED_PATH,
  type Conversation,
  type ProviderCall,
  type ProviderChat,
  type UnansweredAnswer,
} from '@engage/http-contract/conversations';
import { createVapiClient, dataOf } from '@engage/vapi-client';
import type { EngageApi } from '@/lib/engage-api';
import { callQuery, chatQuery, type Filters } from '../lib/filters';
export { isVapiApiError } from '@engage/vapi-client';

/**
 * The page's provider requests, through the server's proxy (/api/provider, operators only) or
 * straight to a provider: the routes and shapes of the provider's OpenAPI document, so the page
 * works the same against the embedded provider and the real one. The unanswered questions and the
 * answers to them are the server's own routes (/api/conversations): it scans once for everyone and
 * saves one answer at a time per assistant.
 * @module
 */

export interface ConversationPage {
  calls: ProviderCall[];
  chats: ProviderChat[];
  /** What the next page asks for (created before this), or null at the end. */
  nextCursor: string | null;
}

export interface AssistantName {
  id: string;
  name: string;
}

export interface ConversationsApi {
  listPage(
    filters: Filters,
    cursor: string | null,
    options?: { signal?: AbortSignal; pageSize?: number },
  ): Promise<ConversationPage>;
  /** The whole conversation: a call read again, or every chat of the session. */
  getConversation(conversation: Conversation, signal?: AbortSignal): Promise<Conversation>;
  /** Deletes a call, or every chat of a session (a visitor's privacy request). */
  deleteConversation(conversation: Conversation): Promise<void>;
  listAssistants(signal?: AbortSignal): Promise<AssistantName[]>;
  /** The site's assistants' unanswered questions (the server's scan, up to a minute old). */
  unansweredQuestions(signal?: AbortSignal): Promise<UnansweredAnswer>;
  /**
   * Adds the answer to the assistant's Answers document (on the server, one save at a time), and
   * mails it to the visitors waiting for it: how many were mailed, and how many sends failed.
   */
  saveAnswer(assistantId: string, question: string, answer: string): Promise<SaveAnswerResult>;
  /** The visitors waiting for an answer by mail, and the answers mailed (their reading is audited). */
  answerRequests(signal?: AbortSignal): Promise<AnswerRequestView[]>;
  /** Mails a saved answer again after a failed send. */
  sendAnswerAgain(id: string): Promise<void>;
  /** The trends of the last `days` days (the server's index of the provider's conversations). */
  stats(days: number, signal?: AbortSignal): Promise<ConversationStats>;
  /** Takes a question the owner will not answer ("hi", "thanks") out of the list for good. */
  dismissQuestion(assistantId: string, question: string): Promise<void>;
}

export interface ConversationsApiOptions {
  /** Engage's API client: the server's own routes, and the user's token for the proxy. */
  server: EngageApi;
  /** The provider's API: the server's proxy (`…/api/provider`, operators only). */
  baseUrl: string;
}

/** GET /chat's answer: ChatPaginatedResponse, or a bare array from a provider that sends one. */
function chatResults(body: unknown): { items: unknown[]; hasMore: boolean | null } {
  if (Array.isArray(body)) return { items: body, hasMore: null };
  const page = body as { results?: unknown; metadata?: { hasNextPage?: unknown } } | null;
  const items = Array.isArray(page?.results) ? page.results : [];
  const hasNext = page?.metadata?.hasNextPage;
  return { items, hasMore: typeof hasNext === 'boolean' ? hasNext : null };
}

/**
 * The newest rows of both lists, cut where a page of the two merged ends. Rows created at the same
 * instant as the last one kept are kept too, so the cursor (created before it) never skips one.
 */
export function mergePage(
  calls: ProviderCall[],
  chats: ProviderChat[],
  more: { calls: boolean; chats: boolean },
  pageSize: number,
): ConversationPage {
  // A list with more to come (its page full, or cut short by the provider's answer size) is only
  // known down to its oldest row: rows of the other list older than that wait for the next page.
  const oldest = (rows: readonly { createdAt: string }[]) =>
    rows.reduce<string | null>((min, r) => (min === null || r.createdAt < min ? r.createdAt : min), null);
  const frontier = [more.calls ? oldest(calls) : null, more.chats ? oldest(chats) : null]
    .filter((at): at is string => at !== null)
    .sort()
    .at(-1);
  const all = [
    ...calls.map((c) => ({ at: c.createdAt, kind: 'call' as const, item: c })),
    ...chats.map((c) => ({ at: c.createdAt, kind: 'chat' as const, item: c })),
  ]
    .filter((row) => frontier === undefined || row.at >= frontier)
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const waiting = calls.length + chats.length > all.length;
  let end = Math.min(pageSize, all.length);
  while (end < all.length && all[end]!.at === all[end - 1]!.at) end += 1;
  const kept = all.slice(0, end);
  const leftOver = end < all.length || waiting || more.calls || more.chats;
  return {
    calls: kept.filter((k) => k.kind === 'call').map((k) => k.item as ProviderCall),
    chats: kept.filter((k) => k.kind === 'chat').map((k) => k.item as ProviderChat),
    nextCursor: leftOver && kept.length ? kept.at(-1)!.at : null,
  };
}

export function createConversationsApi(options: ConversationsApiOptions): ConversationsApi {
  const { server } = options;
  // Through the proxy, the provider's answers are watched like the server's own (a 401, a second
  // factor asked for).
  const vapi = createVapiClient({
    baseUrl: options.baseUrl,
    token: server.token,
    fetch: server.fetch,
  });

  const sessionChats = async (sessionId: string, signal?: AbortSignal) => {
    const body: unknown = await dataOf(
      vapi.GET('/chat', { params: { query: { sessionId, limit: 1000, sortOrder: 'ASC' } }, signal }),
    );
    return parseItems(chatSchema, chatResults(body).items);
  };

  return {
    async listPage(filters, cursor, { signal, pageSize } = {}) {
      const cq = callQuery(filters, cursor, pageSize);
      const hq = chatQuery(filters, cursor, pageSize);
      const [callBody, chatBody] = await Promise.all([
        cq ? dataOf(vapi.GET('/call', { params: { query: cq }, signal })) : Promise.resolve([]),
        hq ? dataOf(vapi.GET('/chat', { params: { query: hq }, signal })) : Promise.resolve([]),
      ]);
      const callItems = Array.isArray(callBody) ? callBody : [];
      const chatPage = chatResults(chatBody);
      const limit = Number(cq?.limit ?? hq?.limit);
      return mergePage(
        parseItems(callSchema, callItems),
        parseItems(chatSchema, chatPage.items),
        {
          calls: callItems.length >= limit,
          chats: chatPage.hasMore ?? chatPage.items.length >= limit,
        },
        limit,
      );
    },

    async getConversation(conversation, signal) {
      if (conversation.kind === 'voice') {
        const call = callSchema.parse(
          await dataOf(vapi.GET('/call/{id}', { params: { path: { id: conversation.ids[0]! } }, signal })),
        );
        return toConversations([call], [])[0]!;
      }
      const sessionId = conversation.key.slice('chat:'.length);
      const chats = await sessionChats(sessionId, signal);
      // A chat of no session (or one the list does not filter by) is the conversation itself.
      const own = chats.filter((c) => c.sessionId === sessionId);
      return own.length ? toConversations([], own)[0]! : conversation;
    },

    async deleteConversation(conversation) {
      if (conversation.kind === 'voice') {
        await vapi.DELETE('/call/{id}', { params: { path: { id: conversation.ids[0]! } } });
        return;
      }
      // Every chat of the session, also those the list had not loaded yet.
      const sessionId = conversation.key.slice('chat:'.length);
      const more = (await sessionChats(sessionId)).filter((c) => c.sessionId === sessionId).map((c) => c.id);
      for (const id of new Set([...conversation.ids, ...more]))
        await vapi.DELETE('/chat/{id}', { params: { path: { id } } });
    },

    async listAssistants(signal) {
      const list: unknown = await dataOf(
        vapi.GET('/assistant', { params: { query: { limit: 1000 } }, signal }),
      );
      return (Array.isArray(list) ? list : [])
        .filter((a): a is { id: string; name?: unknown } => typeof a?.id === 'string')
        .map((a) => ({ id: a.id, name: typeof a.name === 'string' && a.name ? a.name : a.id }));
    },

    async unansweredQuestions(signal) {
      return server.json<UnansweredAnswer>('GET', UNANSWERED_PATH, signal ? { signal } : {});
    },

    async saveAnswer(assistantId, question, answer) {
      const result = await server.json<Partial<SaveAnswerResult>>('POST', ANSWERS_PATH, {
        body: { assistantId, question, answer },
      });
      return { saved: true, mailed: result.mailed ?? 0, notMailed: result.notMailed ?? 0 };
    },
    async answerRequests(signal) {
      const answer = await server.json<AnswerRequestsAnswer>(
        'GET',
        ANSWER_REQUESTS_ADMIN_PATH,
        signal ? { signal } : {},
      );
      return answer.requests;
    },
    async sendAnswerAgain(id) {
      await server.send('POST', answerRequestSendPath(id));
    },
    async stats(days, signal) {
      return server.json<ConversationStats>('GET', `${STATS_PATH}?days=${days}`, signal ? { signal } : {});
    },
    async dismissQuestion(assistantId, question) {
      await server.send('POST', DISMISSED_PATH, { body: { assistantId, question } });
    },
  };
}
