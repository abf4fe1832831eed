/**
 * Chat sessions and chats (exchanges) as stored. Each message is stored once, in the chat that sent
 * or answered it; a session's history is its newest chats (at most CHAT_LIMITS.maxSessionMessages of
 * them, so at least that many messages), and an inline assistant is kept on the session alone.
 * Both tables are bounded: expired sessions go, and the oldest past `maxStoredChats`.
 * @module
 */
import type { EmulatorContext } from '../context.js';
import { iso, json, type EmulatorQueryable } from '../db.js';
import { fail } from '../http.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { CHAT_LIMITS, type Channel, type Message } from './schema.js';

export interface SessionRow {
  id: string;
  channel: Channel;
  assistant_id: string | null;
  assistant: unknown;
  variable_values: unknown;
}

export interface ChatRow {
  id: string;
  seq: string | number;
  org_id: string;
  session_id: string;
  data: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

/** What a chat row holds: its own exchange only. */
interface ChatData {
  name?: string;
  /** The chat this one followed, when the request named it (GET /chat filters on it). */
  previousChatId?: string;
  /** As sent: a string stays a string; messages keep only their role and content. */
  input: string | Message[];
  output: Message[];
}

export const messagesOf = (data: ChatData): Message[] => [
  ...(typeof data.input === 'string' ? [{ role: 'user' as const, content: data.input }] : data.input),
  ...data.output,
];

/** Deletes all but the `keep` newest rows of a chat table (named by one of two literals, never input). */
async function keepNewest(
  db: EmulatorQueryable,
  table: 'emulator_chats' | 'emulator_chat_sessions',
  keep: number,
): Promise<void> {
  await db.query(
    `delete from ${table} where id in (select id from ${table} order by created_at desc, id desc offset $1)`,
    [Math.max(0, keep)],
  );
}

/**
 * Stores one exchange under the session's lock, so concurrent follow-ups both land; the session's
 * oldest chats past its history go, and the table's oldest past the cap.
 */
async function addChat(
  ctx: Pick<EmulatorContext, 'db' | 'now' | 'newId' | 'maxStoredChats'>,
  sessionId: string,
  data: ChatData,
  ended: boolean,
): Promise<ChatRow> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'select id from emulator_chat_sessions where id = $1 for update',
      [sessionId],
    );
    // Gone since it was looked up (expired, or the oldest past the cap): not a server error.
    if (!rows[0])
      fail(404, `Session ${sessionId} has ended: send assistantId (or assistant) to start a new one.`);
    await tx.query(`update emulator_chat_sessions set status = $2, updated_at = $3 where id = $1`, [
      sessionId,
      ended ? 'completed' : 'active',
      now,
    ]);
    await tx.query(
      `delete from emulator_chats where id in (select id from emulator_chats where session_id = $1
         order by seq desc offset $2)`,
      [sessionId, CHAT_LIMITS.maxSessionMessages - 1],
    );
    await keepNewest(tx, 'emulator_chats', ctx.maxStoredChats - 1);
    const inserted = await tx.query<ChatRow>(
      `insert into emulator_chats (id, org_id, session_id, assistant_id, data, created_at, updated_at)
       values ($1, $2, $3, (select assistant_id from emulator_chat_sessions where id = $3), $4::jsonb, $5, $5)
       returning *`,
      [ctx.newId(), EMULATOR_ORG_ID, sessionId, JSON.stringify(data), now],
    );
    return inserted.rows[0]!;
  });
}

export function chatStore(ctx: Pick<EmulatorContext, 'db' | 'now' | 'newId' | 'maxStoredChats'>) {
  const { db } = ctx;

  /** The session's messages before `chat` (or all of them), the newest CHAT_LIMITS.maxSessionMessages. */
  const history = async (sessionId: string, before?: ChatRow): Promise<Message[]> => {
    const { rows } = await db.query<ChatRow>(
      `select * from emulator_chats where session_id = $1 and ($2::bigint is null or seq < $2)
       order by seq desc limit $3`,
      [sessionId, before?.seq ?? null, CHAT_LIMITS.maxSessionMessages],
    );
    return rows
      .reverse()
      .flatMap((r) => messagesOf(json<ChatData>(r.data)))
      .slice(-CHAT_LIMITS.maxSessionMessages);
  };

  return {
    /**
     * A live session the channel may continue, or null: unknown, expired, ended, and an 'api' session
     * asked for through /chat/web all look the same, so a session id reveals nothing of another's chat.
     */
    async findSession(id: string, channel: Channel): Promise<SessionRow | null> {
      const { rows } = await db.query<SessionRow>(
        `select id, channel, assistant_id, assistant, variable_values from emulator_chat_sessions
         where id = $1 and org_id = $2 and status = 'active' and expires_at > $3
           and (channel = 'web' or $4 = 'api')`,
        [id, EMULATOR_ORG_ID, ctx.now(), channel],
      );
      return rows[0] ?? null;
    },

    async sessionOfChat(chatId: string): Promise<string> {
      const { rows } = await db.query<{ session_id: string }>(
        'select session_id from emulator_chats where id = $1 and org_id = $2',
        [chatId, EMULATOR_ORG_ID],
      );
      return rows[0]?.session_id ?? fail(404, `Chat ${chatId} not found.`);
    },

    /**
     * A new session. The oldest sessions (and their chats) past the cap go first; an expired session
     * is kept (it cannot be continued) until the conversation retention removes it with its chats.
     */
    async createSession(fields: {
      channel: Channel;
      assistantId: string | undefined;
      assistant: Record<string, unknown> | undefined;
      variableValues: Record<string, unknown> | undefined;
      seconds: number;
    }): Promise<SessionRow> {
      const now = ctx.now();
      await keepNewest(db, 'emulator_chat_sessions', ctx.maxStoredChats - 1);
      const { rows } = await db.query<SessionRow>(
        `insert into emulator_chat_sessions
           (id, org_id, channel, assistant_id, assistant, variable_values, status, expires_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, 'active', $7, $8, $8)
         returning id, channel, assistant_id, assistant, variable_values`,
        [
          ctx.newId(),
          EMULATOR_ORG_ID,
          fields.channel,
          fields.assistantId ?? null,
          fields.assistantId ? null : JSON.stringify(fields.assistant),
          fields.variableValues ? JSON.stringify(fields.variableValues) : null,
          new Date(now.getTime() + fields.seconds * 1000),
          now,
        ],
      );
      return rows[0]!;
    },

    addChat: (sessionId: string, data: ChatData, ended: boolean) => addChat(ctx, sessionId, data, ended),

    /** The provider's Chat: the exchange, its session's assistant, and the history before it. */
    async toChat(row: ChatRow) {
      const { rows } = await db.query<SessionRow>(
        'select id, channel, assistant_id, assistant, variable_values from emulator_chat_sessions where id = $1',
        [row.session_id],
      );
      const session = rows[0];
      return {
        id: row.id,
        orgId: row.org_id,
        ...(session?.assistant_id
          ? { assistantId: session.assistant_id }
          : session?.assistant
            ? { assistant: json<Record<string, unknown>>(session.assistant) }
            : {}),
        ...json<ChatData>(row.data),
        messages: await history(row.session_id, row),
        sessionId: row.session_id,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      };
    },

    /**
     * Deletes a chat and its messages (stored in it alone), and its session once no chat is left
     * (the session holds the assistant and the caller's variable values). The chat as it was, or null.
     */
    async removeChat(id: string) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<ChatRow>(
          'delete from emulator_chats where id = $1 and org_id = $2 returning *',
          [id, EMULATOR_ORG_ID],
        );
        const row = rows[0];
        if (!row) return null;
        await tx.query(
          `delete from emulator_chat_sessions s where s.id = $1
             and not exists (select 1 from emulator_chats c where c.session_id = s.id)`,
          [row.session_id],
        );
        return row;
      });
    },

    async findChat(id: string): Promise<ChatRow | null> {
      const { rows } = await db.query<ChatRow>('select * from emulator_chats where id = $1 and org_id = $2', [
        id,
        EMULATOR_ORG_ID,
      ]);
      return rows[0] ?? null;
    },
  };
}
