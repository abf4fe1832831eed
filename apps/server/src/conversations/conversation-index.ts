import type { Queryable } from '@engage/db';
import {
  callSchema,
  chatSchema,
  parseItems,
  toConversations,
  unansweredIn,
  type ProviderCall,
  type ProviderChat,
} from '@engage/http-contract/conversations';
import { dataOf, type VapiClient } from '@engage/vapi-client';
import { chatItems } from './unanswered-scan.js';

/**
 * The `conversation_index` table: the provider's calls and chat turns as the trends count them,
 * brought up to date from the provider by reading only what is newer than the newest row (less an
 * hour, so a call still going when it was read is read again once it has its transcript).
 * @module
 */

/** The trends reach back this far. */
export const INDEX_DAYS = 90;
const PAGE = 1000;
/** Calls come with their transcripts: smaller pages keep each answer a few MB. */
const CALL_PAGE = 250;
/** At most this many rows read per sync and kind: the first sync of a large site is bounded. */
const MAX_ROWS = 100_000;
const REREAD_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface IndexRow {
  id: string;
  kind: 'call' | 'chat';
  conversationKey: string;
  assistantId: string | null;
  startedAt: string;
  unanswered: boolean;
}

async function callsSince(vapi: VapiClient, since: string): Promise<ProviderCall[]> {
  const out: ProviderCall[] = [];
  const seen = new Set<string>();
  let before: string | null = null;
  while (out.length < MAX_ROWS) {
    const page: ProviderCall[] = parseItems(
      callSchema,
      [
        await dataOf(
          vapi.GET('/call', {
            params: {
              query: { limit: PAGE, createdAtGe: since, ...(before ? { createdAtLe: before } : {}) },
            },
          }),
        ),
      ].flat(),
    );
    const fresh = page.filter((c) => !seen.has(c.id));
    for (const call of fresh) {
      seen.add(call.id);
      out.push(call);
    }
    if (page.length < CALL_PAGE || fresh.length === 0) break;
    before = page.at(-1)!.createdAt;
  }
  return out;
}

async function chatsSince(vapi: VapiClient, since: string): Promise<ProviderChat[]> {
  const out: ProviderChat[] = [];
  for (let page = 1; out.length < MAX_ROWS; page++) {
    const items = parseItems(
      chatSchema,
      chatItems(
        await dataOf(
          vapi.GET('/chat', {
            params: { query: { limit: PAGE, page, sortOrder: 'DESC', createdAtGe: since } },
          }),
        ),
      ),
    );
    out.push(...items);
    if (items.length < PAGE) break;
  }
  return out;
}

/** The rows of calls and chat turns: pure. */
export function indexRows(
  calls: readonly ProviderCall[],
  chats: readonly ProviderChat[],
  phrases: readonly string[] | undefined,
): IndexRow[] {
  const rows: IndexRow[] = [];
  for (const call of calls) {
    const conversation = toConversations([call], [])[0];
    if (!conversation) continue;
    rows.push({
      id: `call:${call.id}`,
      kind: 'call',
      conversationKey: call.id,
      assistantId: call.assistantId ?? null,
      startedAt: new Date(conversation.startedAt).toISOString(),
      unanswered: unansweredIn(conversation, phrases).length > 0,
    });
  }
  for (const chat of chats) {
    const conversation = toConversations([], [chat])[0];
    if (!conversation) continue;
    rows.push({
      id: `chat:${chat.id}`,
      kind: 'chat',
      conversationKey: chat.sessionId ?? chat.id,
      assistantId: chat.assistantId ?? null,
      startedAt: new Date(conversation.startedAt).toISOString(),
      unanswered: unansweredIn(conversation, phrases).length > 0,
    });
  }
  return rows;
}

async function upsert(db: Queryable, rows: readonly IndexRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5_000) {
    const batch = rows.slice(i, i + 5_000);
    await db.query(
      `insert into conversation_index (id, kind, conversation_key, assistant_id, started_at, unanswered)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::boolean[])
       on conflict (id) do update set unanswered = excluded.unanswered, started_at = excluded.started_at`,
      [
        batch.map((r) => r.id),
        batch.map((r) => r.kind),
        batch.map((r) => r.conversationKey),
        batch.map((r) => r.assistantId),
        batch.map((r) => r.startedAt),
        batch.map((r) => r.unanswered),
      ],
    );
  }
}

export interface SyncOptions {
  db: Queryable;
  vapi: VapiClient;
  siteAssistantIds: readonly string[];
  phrases: readonly string[] | undefined;
  now?: () => number;
}

/** Reads what the provider has that is newer than the index, and drops rows past INDEX_DAYS. */
export async function syncConversationIndex(options: SyncOptions): Promise<void> {
  const { db, vapi } = options;
  const now = options.now?.() ?? Date.now();
  const oldest = now - INDEX_DAYS * DAY_MS;
  const { rows } = await db.query<{ newest: Date | string | null }>(
    'select max(started_at) as newest from conversation_index',
  );
  const newest = rows[0]?.newest ? new Date(rows[0].newest).getTime() : null;
  const since = new Date(Math.max(oldest, newest === null ? oldest : newest - REREAD_MS)).toISOString();
  const [calls, chats] = await Promise.all([callsSince(vapi, since), chatsSince(vapi, since)]);
  const site = new Set(options.siteAssistantIds);
  const mine = indexRows(calls, chats, options.phrases).filter(
    (r) => site.size === 0 || (r.assistantId !== null && site.has(r.assistantId)),
  );
  await upsert(db, mine);
  await db.query('delete from conversation_index where started_at < $1', [new Date(oldest).toISOString()]);
}

/** A call or chat turn deleted at the provider (through Engage) leaves the counts. */
export async function dropFromIndex(db: Queryable, providerId: string): Promise<void> {
  await db.query('delete from conversation_index where id = any($1)', [
    [`call:${providerId}`, `chat:${providerId}`],
  ]);
}
