import {
  callSchema,
  chatSchema,
  parseItems,
  toConversations,
  unansweredQuestions,
  type UnansweredAnswer,
} from '@engage/http-contract/conversations';
import { dataOf, type VapiClient } from '@engage/vapi-client';
import type { AnswersStore } from './answers-store.js';

/**
 * The Unanswered tab's scan, done by the server: the newest calls and chats (each list page by page,
 * up to SCAN_PAGES × PAGE_SIZE), as conversations of the site's assistants, less the questions the
 * Answers documents answer. The grouping is the pure logic the site used (http-contract).
 * @module
 */

export const SCAN_PAGES = 10;
export const PAGE_SIZE = 100;

interface Dated {
  id: string;
  createdAt: string;
}

/** GET /chat's ChatPaginatedResponse (or a bare array from a provider that sends one). */
export const chatItems = (body: unknown): unknown[] =>
  Array.isArray(body)
    ? body
    : Array.isArray((body as { results?: unknown })?.results)
      ? (body as { results: unknown[] }).results
      : [];

/**
 * Newest first, page after page: each page asks for rows created at or before the last one seen
 * (rows of the same instant are not skipped; those already read are dropped by id).
 */
async function newest<T extends Dated>(readPage: (before: string | null) => Promise<T[]>): Promise<T[]> {
  const seen = new Map<string, T>();
  let before: string | null = null;
  for (let i = 0; i < SCAN_PAGES; i++) {
    const page = await readPage(before);
    const fresh = page.filter((item) => !seen.has(item.id));
    for (const item of fresh) seen.set(item.id, item);
    if (page.length < PAGE_SIZE || fresh.length === 0) break;
    before = page.at(-1)!.createdAt;
  }
  return [...seen.values()];
}

export interface ScanOptions {
  vapi: VapiClient;
  answers: AnswersStore;
  /** The site's assistants; others' conversations are left out. */
  siteAssistantIds: readonly string[];
  phrases: readonly string[] | undefined;
  /** The questions operators dismissed (normalised), per assistant: left out like answered ones. */
  dismissed?: (assistantIds: readonly string[]) => Promise<ReadonlyMap<string, ReadonlySet<string>>>;
  signal?: AbortSignal;
  now?: () => Date;
}

export async function scanUnanswered(options: ScanOptions): Promise<UnansweredAnswer> {
  const { vapi, signal } = options;
  const [calls, chats] = await Promise.all([
    newest(async (before) =>
      parseItems(
        callSchema,
        [
          await dataOf(
            vapi.GET('/call', {
              params: { query: { limit: PAGE_SIZE, ...(before ? { createdAtLe: before } : {}) } },
              signal,
            }),
          ),
        ].flat(),
      ),
    ),
    newest(async (before) =>
      parseItems(
        chatSchema,
        chatItems(
          await dataOf(
            vapi.GET('/chat', {
              params: {
                query: {
                  limit: PAGE_SIZE,
                  page: 1,
                  sortOrder: 'DESC',
                  ...(before ? { createdAtLe: before } : {}),
                },
              },
              signal,
            }),
          ),
        ),
      ),
    ),
  ]);
  const site = new Set(options.siteAssistantIds);
  const conversations = toConversations(calls, chats).filter(
    (c) => site.size === 0 || (c.assistantId !== null && site.has(c.assistantId)),
  );
  const assistantIds = [
    ...new Set(conversations.map((c) => c.assistantId).filter((id): id is string => id !== null)),
  ];
  const [answeredByOwner, dismissed] = await Promise.all([
    options.answers.answeredQuestions(assistantIds, signal),
    options.dismissed?.(assistantIds) ?? new Map<string, ReadonlySet<string>>(),
  ]);
  // A dismissed question leaves the tab as an answered one does.
  const answered = new Map<string, ReadonlySet<string>>(answeredByOwner);
  for (const [id, questions] of dismissed)
    answered.set(id, new Set([...(answered.get(id) ?? []), ...questions]));
  return {
    questions: unansweredQuestions(conversations, {
      answered,
      ...(options.phrases ? { phrases: options.phrases } : {}),
    }),
    scanned: conversations.length,
    scannedAt: (options.now?.() ?? new Date()).toISOString(),
  };
}
