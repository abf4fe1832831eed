/**
 * GET /chat as the document describes it: filtered by ids, assistant(s), session, previous chat and
 * the created-at and updated-at ranges; sorted by creation (`sortOrder`, DESC by default); paginated
 * by `page` and `limit` into the provider's ChatPaginatedResponse ({results, metadata}). The page's
 * chats are answered in three queries whatever their number (sessions and histories in one each).
 * @module
 */
import { z } from 'zod';
import { dateRangeShape, idListParam, idParam, limitParam, Where } from '../conversations/query.js';
import { iso, json, type EmulatorQueryable } from '../db.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { CHAT_LIMITS, type Message } from './schema.js';
import { messagesOf, type ChatRow } from './store.js';

/** The deepest page asked for: 1000 × 100 000 rows is beyond any store the emulator keeps. */
const MAX_PAGE = 100_000;
/** Room kept for the answer's metadata and wrapping within the byte cap. */
const METADATA_BYTES = 1024;

export const chatListSchema = z.strictObject({
  id: idParam.optional(),
  idAny: idListParam.optional(),
  assistantId: idParam.optional(),
  assistantIdAny: idListParam.optional(),
  squadId: idParam.optional(),
  sessionId: idParam.optional(),
  previousChatId: idParam.optional(),
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must not be less than 1')
    .max(MAX_PAGE, `page must not be greater than ${MAX_PAGE}`)
    .default(1),
  sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
  // Chats have no duration or cost here (nothing is billed): every sort is by creation.
  sortBy: z.enum(['createdAt', 'duration', 'cost']).default('createdAt'),
  limit: limitParam,
  ...dateRangeShape,
});

export type ChatListQuery = z.infer<typeof chatListSchema>;

interface SessionInfo {
  id: string;
  assistant_id: string | null;
  assistant: unknown;
}

function whereOf(q: ChatListQuery): Where {
  const where = new Where();
  where.add(`org_id = ${where.param(EMULATOR_ORG_ID)}`);
  if (q.id) where.add(`id = ${where.param(q.id)}`);
  if (q.idAny) where.add(`id = any(${where.param(q.idAny)}::text[])`);
  if (q.assistantId) where.add(`assistant_id = ${where.param(q.assistantId)}`);
  if (q.assistantIdAny) where.add(`assistant_id = any(${where.param(q.assistantIdAny)}::text[])`);
  // The embedded provider runs assistants only: no chat has a squad.
  if (q.squadId) where.add('false');
  if (q.sessionId) where.add(`session_id = ${where.param(q.sessionId)}`);
  if (q.previousChatId) where.add(`data->>'previousChatId' = ${where.param(q.previousChatId)}`);
  return where.dateRanges(q, { createdAt: 'created_at', updatedAt: 'updated_at' });
}

/** The provider's Chats for these rows: each with its session's assistant and the history before it. */
export async function toChats(db: EmulatorQueryable, rows: readonly ChatRow[]) {
  if (rows.length === 0) return [];
  const sessionIds = [...new Set(rows.map((r) => r.session_id))];
  const sessions = new Map(
    (
      await db.query<SessionInfo>(
        'select id, assistant_id, assistant from emulator_chat_sessions where id = any($1::text[])',
        [sessionIds],
      )
    ).rows.map((s) => [s.id, s]),
  );
  // A session keeps at most CHAT_LIMITS.maxSessionMessages chats: its whole history is bounded.
  const { rows: all } = await db.query<Pick<ChatRow, 'session_id' | 'seq' | 'data'>>(
    'select session_id, seq, data from emulator_chats where session_id = any($1::text[]) order by seq',
    [sessionIds],
  );
  const bySession = new Map<string, typeof all>();
  for (const r of all) {
    const list = bySession.get(r.session_id);
    if (list) list.push(r);
    else bySession.set(r.session_id, [r]);
  }
  return rows.map((row) => {
    const session = sessions.get(row.session_id);
    const messages: Message[] = (bySession.get(row.session_id) ?? [])
      .filter((r) => Number(r.seq) < Number(row.seq))
      .flatMap((r) => messagesOf(json(r.data)))
      .slice(-CHAT_LIMITS.maxSessionMessages);
    return {
      id: row.id,
      orgId: row.org_id,
      ...(session?.assistant_id
        ? { assistantId: session.assistant_id }
        : session?.assistant
          ? { assistant: json<Record<string, unknown>>(session.assistant) }
          : {}),
      ...json<Record<string, unknown>>(row.data),
      messages,
      sessionId: row.session_id,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  });
}

/** The first chats whose JSON fits in `maxBytes` (at least one, so a page always moves on). */
function fitting<T>(chats: readonly T[], maxBytes: number): T[] {
  let bytes = 2; // the array's brackets
  const kept: T[] = [];
  for (const chat of chats) {
    bytes += Buffer.byteLength(JSON.stringify(chat)) + (kept.length ? 1 : 0);
    if (kept.length && bytes > maxBytes) break;
    kept.push(chat);
  }
  return kept;
}

/**
 * One page of chats and the provider's PaginationMeta. A page whose chats come to more than
 * `maxBytes` of JSON is cut short (the limit allows 1000 chats of up to 50 history messages each):
 * `hasNextPage` is then true and `itemsPerPage` says how many came. The next ones are read with a
 * created-at bound (`createdAtLt` the last one's createdAt) or a smaller `limit`; a `page` number
 * counts in pages of the `limit` asked for, so it would skip the chats cut off.
 */
export async function listChats(db: EmulatorQueryable, q: ChatListQuery, maxBytes = Infinity) {
  const where = whereOf(q);
  const direction = q.sortOrder === 'ASC' ? 'asc' : 'desc';
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from emulator_chats ${where.sql}`,
    where.params,
  );
  const totalItems = count.rows[0]?.n ?? 0;
  const params = [...where.params, q.limit, (q.page - 1) * q.limit];
  const { rows } = await db.query<ChatRow>(
    `select * from emulator_chats ${where.sql}
     order by created_at ${direction}, seq ${direction} limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  const all = await toChats(db, rows);
  const results = fitting(all, maxBytes - METADATA_BYTES);
  const cut = results.length < all.length;
  return {
    results,
    metadata: {
      itemsPerPage: cut ? results.length : q.limit,
      totalItems,
      currentPage: q.page,
      totalPages: q.limit > 0 ? Math.ceil(totalItems / q.limit) : 0,
      hasNextPage: cut || (q.limit > 0 && q.page * q.limit < totalItems),
      sortOrder: q.sortOrder,
      itemsBeyondRetention: false,
    },
  };
}
