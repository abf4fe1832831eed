/**
 * Chats: POST /chat/web (the public key, as the provider's web widget uses it), POST /chat and
 * GET /chat/{id} (the private key). Each request is one exchange answered by the local assistant
 * (knowledge/local-assistant.ts) from the last user message; a session keeps the conversation so a
 * follow-up sends only its `sessionId`. Streaming (`stream: true`) is not emulated: 400.
 * @module
 */
import type { components } from '@engage/vapi-contract';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, type RouteKey } from '../contract.js';
import { iso, json, type EmulatorQueryable } from '../db.js';
import { fail, jsonBody, parseWith } from '../http.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { jsonStore } from '../store.js';
import { assistantSchema } from './assistants.js';
import { fillVariables, overridesSchema } from './calls.js';

type WebChat = components['schemas']['WebChat'];

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

/** The bounds of what one request may send and one session keeps. */
export const CHAT_LIMITS = {
  /** Characters of one message (the document's AssistantMessage allows 10 000). */
  maxMessageChars: 10_000,
  /** Characters of all the input of one request. */
  maxInputChars: 20_000,
  /** Messages in one request's input array. */
  maxInputMessages: 50,
  /** Messages a session keeps (the oldest are dropped). */
  maxSessionMessages: 50,
  /** Session lifetime without sessionExpirationSeconds. */
  defaultSessionSeconds: 24 * 60 * 60,
} as const;

const ROLES = ['system', 'user', 'assistant', 'tool', 'developer'] as const;

/** A message of `input`: {role, content}, or the artifact form {role, message}. */
const messageSchema = z
  .looseObject({
    role: z.enum(ROLES, { message: `role must be one of ${ROLES.join(', ')}` }),
    content: z.string().max(CHAT_LIMITS.maxMessageChars).optional(),
    message: z.string().max(CHAT_LIMITS.maxMessageChars).optional(),
  })
  .transform((m) => ({ role: m.role, content: m.content ?? m.message ?? '' }));

const stringInput = z.string().trim().min(1, 'input must not be empty').max(CHAT_LIMITS.maxMessageChars);
const messagesInput = z
  .array(messageSchema)
  .min(1, 'input must hold at least one message')
  .max(CHAT_LIMITS.maxInputMessages, `input may hold at most ${CHAT_LIMITS.maxInputMessages} messages`);

/**
 * A string or a message array: the shape is chosen first, so a caller hears what is wrong with the
 * one they sent ("at most 50 messages") rather than a union's generic message.
 */
const inputSchema = z
  .union([z.string(), z.array(z.unknown())], {
    message: 'input must be a string, or an array of messages {role, content}',
  })
  .transform((input, ctx) => {
    const parsed = typeof input === 'string' ? stringInput.safeParse(input) : messagesInput.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  })
  .transform((input) => (typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input))
  .refine((messages) => messages.reduce((n, m) => n + m.content.length, 0) <= CHAT_LIMITS.maxInputChars, {
    message: `input may hold at most ${CHAT_LIMITS.maxInputChars} characters in all`,
  });

const common = {
  assistantId: z.string().min(1).max(128).optional(),
  assistant: assistantSchema.optional(),
  sessionId: z.string().min(1).max(128).optional(),
  input: inputSchema,
  stream: z.boolean().optional(),
};

/** CreateWebChatDTO (the document has the component, not the route). */
const webChatSchema = z.strictObject({
  ...common,
  assistantOverrides: overridesSchema.optional(),
  sessionExpirationSeconds: z.number().min(60).max(2_592_000).optional(),
  customer: z.record(z.string(), z.unknown()).optional(),
  sessionEnd: z.boolean().optional(),
});

/** CreateChatDTO. */
const chatSchema = z.strictObject({
  ...common,
  assistantOverrides: overridesSchema.optional(),
  name: z.string().max(40).optional(),
  previousChatId: z.string().min(1).max(128).optional(),
  squadId: z.string().optional(),
  squad: z.record(z.string(), z.unknown()).optional(),
  transport: z.record(z.string(), z.unknown()).optional(),
});

type Message = { role: (typeof ROLES)[number]; content: string };
type Channel = 'web' | 'api';

interface SessionRow {
  id: string;
  channel: Channel;
  assistant_id: string | null;
  assistant: unknown;
  variable_values: unknown;
  messages: unknown;
}

interface ChatRow {
  id: string;
  org_id: string;
  session_id: string;
  data: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

const toChat = (row: ChatRow) => ({
  id: row.id,
  orgId: row.org_id,
  ...json<Record<string, unknown>>(row.data),
  sessionId: row.session_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export function chatRoutes(ctx: EmulatorContext): Hono {
  const { db } = ctx;
  const assistants = jsonStore(ctx, 'emulator_assistants', 'Assistant');
  const app = new Hono();

  /**
   * A live session the channel may continue, or null: unknown, expired, ended, and an 'api' session
   * asked for through /chat/web all look the same, so a session id reveals nothing of another's chat.
   */
  const findSession = async (id: string, channel: Channel) => {
    const { rows } = await db.query<SessionRow>(
      `select id, channel, assistant_id, assistant, variable_values, messages from emulator_chat_sessions
       where id = $1 and org_id = $2 and status = 'active' and expires_at > $3
         and (channel = 'web' or $4 = 'api')`,
      [id, EMULATOR_ORG_ID, ctx.now(), channel],
    );
    return rows[0] ?? null;
  };

  /** The stored assistant, or 400 in the provider's words. */
  const storedAssistant = async (id: string) => {
    const stored = await assistants.find(id);
    if (!stored) fail(400, `Couldn't Get Assistant. \`assistantId\` ${id} Does Not Exist.`);
    return assistants.dataOf(stored);
  };

  const converse = async (c: Context, route: RouteKey, channel: Channel) => {
    const raw = await jsonBody(c);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      fail(400, 'The body must be a JSON object.');
    const body = raw as Record<string, unknown>;
    if (body.input === undefined || body.input === null)
      fail(400, 'input must be provided: a string, or an array of messages {role, content}.');
    // The document's message alternatives are call artifacts (UserMessage needs time, endTime…) and
    // refuse the {role, content} its own example sends: zod checks `input`, the document the rest.
    checkBody(route, { ...body, input: '' });
    const parsed = parseWith(channel === 'web' ? webChatSchema : chatSchema, body) as z.infer<
      typeof chatSchema
    > &
      z.infer<typeof webChatSchema>;
    if (parsed.stream)
      fail(
        400,
        'stream: true is not emulated by the embedded provider: leave it out for the whole answer in one response.',
      );
    if (parsed.squadId || parsed.squad)
      fail(501, 'The embedded provider runs assistants only: squads need the real provider.');
    if (parsed.transport)
      fail(501, 'The embedded provider does not send chats over SMS: that needs the real provider.');
    if (parsed.sessionId && parsed.previousChatId)
      fail(400, 'sessionId and previousChatId are mutually exclusive.');
    if (channel === 'web') {
      // The public key is public: what bounds one caller is their address.
      const retryAfter = await ctx.takeWebChat(c);
      if (retryAfter !== null)
        return c.json(
          {
            error: 'rate_limited',
            message: `Too many chat messages from this address; try again in ${retryAfter} s.`,
            statusCode: 429,
          },
          429,
          { 'Retry-After': String(retryAfter) },
        );
    }

    let sessionId = parsed.sessionId;
    if (parsed.previousChatId) {
      const { rows } = await db.query<{ session_id: string }>(
        'select session_id from emulator_chats where id = $1 and org_id = $2',
        [parsed.previousChatId, EMULATOR_ORG_ID],
      );
      sessionId = rows[0]?.session_id ?? fail(404, `Chat ${parsed.previousChatId} not found.`);
    }
    let session = sessionId ? await findSession(sessionId, channel) : null;
    if (sessionId && !session && parsed.previousChatId) fail(404, `Chat ${parsed.previousChatId} has ended.`);
    if (session && parsed.assistantId && parsed.assistantId !== session.assistant_id)
      fail(400, 'This session belongs to another assistant: leave out assistantId, or start a new session.');
    // A session unknown (or expired) starts anew, as the provider does, when the request names an assistant.
    if (!session && !parsed.assistantId && !parsed.assistant)
      fail(
        sessionId ? 404 : 400,
        sessionId
          ? `Session ${sessionId} not found: send assistantId (or assistant) to start a new one.`
          : 'assistantId or assistant must be provided (or the sessionId of an ongoing chat).',
      );

    const assistant = session
      ? session.assistant_id
        ? await storedAssistant(session.assistant_id)
        : json<Record<string, unknown>>(session.assistant)
      : parsed.assistantId
        ? await storedAssistant(parsed.assistantId)
        : (parsed.assistant as Record<string, unknown>);
    const variableValues = session
      ? (json<Record<string, unknown> | null>(session.variable_values) ?? undefined)
      : (parsed.assistantOverrides?.variableValues as Record<string, unknown> | undefined);
    const greeting = fillVariables(assistant.firstMessage, variableValues);

    const now = ctx.now();
    if (!session) {
      // Expired sessions (and their chats) go when a new one comes, and the oldest past the cap: a
      // caller may ask for a 30-day session, so expiry alone would not keep the table bounded.
      await db.query('delete from emulator_chat_sessions where expires_at <= $1', [now]);
      await keepNewest(db, 'emulator_chat_sessions', ctx.maxStoredChats - 1);
      const seconds = parsed.sessionExpirationSeconds ?? CHAT_LIMITS.defaultSessionSeconds;
      const { rows } = await db.query<SessionRow>(
        `insert into emulator_chat_sessions
           (id, org_id, channel, assistant_id, assistant, variable_values, messages, status, expires_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, '[]'::jsonb, 'active', $7, $8, $8)
         returning id, channel, assistant_id, assistant, variable_values, messages`,
        [
          ctx.newId(),
          EMULATOR_ORG_ID,
          channel,
          parsed.assistantId ?? null,
          parsed.assistantId ? null : JSON.stringify(parsed.assistant),
          variableValues ? JSON.stringify(variableValues) : null,
          new Date(now.getTime() + seconds * 1000),
          now,
        ],
      );
      session = rows[0]!;
    }

    const input = parsed.input as Message[];
    const question = input.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    // sessionEnd: the session is completed and the message not processed.
    const output: Message[] = parsed.sessionEnd
      ? []
      : [
          {
            role: 'assistant',
            content: await ctx.localAssistant.reply({ ...assistant, firstMessage: greeting }, question),
          },
        ];

    const chatId = ctx.newId();
    const row = await db.transaction(async (tx) => {
      // The answer was found outside the transaction (it may parse documents); the history is
      // appended under the row's lock, so concurrent follow-ups both land.
      const { rows } = await tx.query<{ messages: unknown }>(
        'select messages from emulator_chat_sessions where id = $1 for update',
        [session.id],
      );
      // Gone since it was looked up (expired, or the oldest past the cap): not a server error.
      if (!rows[0])
        fail(404, `Session ${session.id} has ended: send assistantId (or assistant) to start a new one.`);
      const before = json<Message[]>(rows[0].messages);
      const after = [...before, ...input, ...output].slice(-CHAT_LIMITS.maxSessionMessages);
      await tx.query(
        `update emulator_chat_sessions set messages = $2::jsonb, status = $3, updated_at = $4 where id = $1`,
        [session.id, JSON.stringify(after), parsed.sessionEnd ? 'completed' : 'active', now],
      );
      const data = {
        ...(session.assistant_id ? { assistantId: session.assistant_id } : { assistant }),
        ...(parsed.name ? { name: parsed.name } : {}),
        // As sent: a string stays a string; messages keep only their role and content.
        input: typeof body.input === 'string' ? body.input : input,
        messages: before,
        output,
      };
      // One long session's exchanges are bounded too (its messages are, its chats would not be).
      await keepNewest(tx, 'emulator_chats', ctx.maxStoredChats - 1);
      const inserted = await tx.query<ChatRow>(
        `insert into emulator_chats (id, org_id, session_id, data, created_at, updated_at)
         values ($1, $2, $3, $4::jsonb, $5, $5) returning *`,
        [chatId, EMULATOR_ORG_ID, session.id, JSON.stringify(data), now],
      );
      return inserted.rows[0]!;
    });
    if (channel === 'web') {
      const web: WebChat = { id: row.id, sessionId: session.id, output: output as WebChat['output'] };
      return c.json(web, 201);
    }
    return c.json(toChat(row), 201);
  };

  app.post('/chat/web', (c) => converse(c, 'POST /chat/web', 'web'));
  app.post('/chat', (c) => converse(c, 'POST /chat', 'api'));
  app.get('/chat/:id', async (c) => {
    const { rows } = await db.query<ChatRow>('select * from emulator_chats where id = $1 and org_id = $2', [
      c.req.param('id'),
      EMULATOR_ORG_ID,
    ]);
    return c.json(toChat(rows[0] ?? fail(404, `Chat ${c.req.param('id')} not found`)));
  });
  return app;
}
