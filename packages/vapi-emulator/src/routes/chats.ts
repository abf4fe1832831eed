/**
 * Chats: POST /chat/web (the public key, as the provider's web widget uses it), POST /chat,
 * GET /chat (the list), GET /chat/{id} and DELETE /chat/{id} (the private key). Each request is one exchange answered by the local assistant
 * (knowledge/local-assistant.ts) from the last user message; a session keeps the conversation so a
 * follow-up sends only its `sessionId`. Streaming (`stream: true`) is not emulated: 400.
 * Parsing is chats/schema.ts's, storage chats/store.ts's; this file puts the steps in order.
 * @module
 */
import type { components } from '@engage/vapi-contract';
import { Hono, type Context } from 'hono';
import { chatListSchema, listChats } from '../chats/list.js';
import {
  CHAT_LIMITS,
  parseChatRequest,
  type Channel,
  type ChatRequest,
  type Message,
} from '../chats/schema.js';
import { chatStore, type SessionRow } from '../chats/store.js';
import type { EmulatorContext } from '../context.js';
import { checkQuery, type RouteKey } from '../contract.js';
import { json } from '../db.js';
import { fail, parseWith, tooMany } from '../http.js';
import { enforceKeyScope } from '../tokens/scope.js';
import { fillVariables, storedAssistants } from './assistant-choice.js';

export { CHAT_LIMITS } from '../chats/schema.js';

type WebChat = components['schemas']['WebChat'];

export function chatRoutes(ctx: EmulatorContext): Hono {
  const chats = chatStore(ctx);
  const storedAssistant = storedAssistants(ctx);
  const app = new Hono();

  /** The session the request continues, or null when it starts one (or 4xx when it can do neither). */
  const continuedSession = async (parsed: ChatRequest, channel: Channel): Promise<SessionRow | null> => {
    const sessionId = parsed.previousChatId
      ? await chats.sessionOfChat(parsed.previousChatId)
      : parsed.sessionId;
    const session = sessionId ? await chats.findSession(sessionId, channel) : null;
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
    return session;
  };

  /** The assistant that answers: the session's, else the one the request names or carries. */
  const assistantOf = async (session: SessionRow | null, parsed: ChatRequest) => {
    const assistantId = session ? session.assistant_id : parsed.assistantId;
    if (assistantId) return storedAssistant(assistantId);
    return session
      ? json<Record<string, unknown>>(session.assistant)
      : (parsed.assistant as Record<string, unknown>);
  };

  const converse = async (c: Context, route: RouteKey, channel: Channel) => {
    const { parsed, sentString } = await parseChatRequest(c, route, channel);
    if (channel === 'web') {
      // The public key is public: what bounds one caller is their address.
      const retryAfter = await ctx.takeWebChat(c);
      if (retryAfter !== null) return tooMany(c, retryAfter, 'chat messages');
    }
    const found = await continuedSession(parsed, channel);
    // A public key's restrictions hold for a session's assistant as for a new one's.
    const assistantId = found ? found.assistant_id : parsed.assistantId;
    enforceKeyScope(c, {
      ...(assistantId ? { assistantId } : { transient: true }),
      overrides: parsed.assistantOverrides,
    });
    const assistant = await assistantOf(found, parsed);
    const variableValues = found
      ? (json<Record<string, unknown> | null>(found.variable_values) ?? undefined)
      : (parsed.assistantOverrides?.variableValues as Record<string, unknown> | undefined);
    const session =
      found ??
      (await chats.createSession({
        channel,
        assistantId: parsed.assistantId,
        assistant: parsed.assistant,
        variableValues,
        seconds: parsed.sessionExpirationSeconds ?? CHAT_LIMITS.defaultSessionSeconds,
      }));

    const input = parsed.input as Message[];
    const question = input.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const greeting = fillVariables(assistant.firstMessage, variableValues);
    // sessionEnd: the session is completed and the message not processed.
    const output: Message[] = parsed.sessionEnd
      ? []
      : [
          {
            role: 'assistant',
            content: await ctx.localAssistant.reply({ ...assistant, firstMessage: greeting }, question),
          },
        ];

    const row = await chats.addChat(
      session.id,
      {
        ...(parsed.name ? { name: parsed.name } : {}),
        ...(parsed.previousChatId ? { previousChatId: parsed.previousChatId } : {}),
        input: sentString ? input[0]!.content : input,
        output,
      },
      parsed.sessionEnd === true,
    );
    if (channel === 'web') {
      const web: WebChat = { id: row.id, sessionId: session.id, output: output as WebChat['output'] };
      return c.json(web, 201);
    }
    return c.json(await chats.toChat(row), 201);
  };

  app.post('/chat/web', (c) => converse(c, 'POST /chat/web', 'web'));
  app.post('/chat', (c) => converse(c, 'POST /chat', 'api'));
  app.get('/chat', async (c) => {
    checkQuery('GET /chat', c.req.query());
    return c.json(await listChats(ctx.db, parseWith(chatListSchema, c.req.query()), ctx.maxChatListBytes));
  });
  app.get('/chat/:id', async (c) => {
    const row = await chats.findChat(c.req.param('id'));
    return c.json(await chats.toChat(row ?? fail(404, `Chat ${c.req.param('id')} not found`)));
  });
  // A visitor's privacy request: the chat goes with its messages (its history is read from it).
  app.delete('/chat/:id', async (c) => {
    checkQuery('DELETE /chat/{id}', c.req.query());
    const row = await chats.findChat(c.req.param('id'));
    const chat = await chats.toChat(row ?? fail(404, `Chat ${c.req.param('id')} not found`));
    if (!(await chats.removeChat(chat.id))) fail(404, `Chat ${chat.id} not found`);
    return c.json(chat);
  });
  return app;
}
