/**
 * What a chat request may be (POST /chat/web, POST /chat): the provider's DTOs, checked by the
 * document and by zod, with the emulator's bounds on every size.
 * @module
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { checkBody, type RouteKey } from '../contract.js';
import { fail, jsonBody, parseWith } from '../http.js';
import { inlineAssistantSchema, overridesSchema } from '../routes/assistant-choice.js';

/** The bounds of what one request may send and one session keeps. */
export const CHAT_LIMITS = {
  /** Characters of one message (the document's AssistantMessage allows 10 000). */
  maxMessageChars: 10_000,
  /** Characters of all the input of one request. */
  maxInputChars: 20_000,
  /** Messages in one request's input array. */
  maxInputMessages: 50,
  /** Messages a session keeps (the oldest are dropped), and so the chats (exchanges) it keeps. */
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
  assistant: inlineAssistantSchema.optional(),
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

export type Message = { role: (typeof ROLES)[number]; content: string };
export type Channel = 'web' | 'api';
export type ChatRequest = z.infer<typeof chatSchema> & z.infer<typeof webChatSchema>;

/** The request's body, parsed and checked, or a clear 4xx (features the emulator lacks: 400/501). */
export async function parseChatRequest(
  c: Context,
  route: RouteKey,
  channel: Channel,
): Promise<{ parsed: ChatRequest; sentString: boolean }> {
  const raw = await jsonBody(c);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(400, 'The body must be a JSON object.');
  const body = raw as Record<string, unknown>;
  if (body.input === undefined || body.input === null)
    fail(400, 'input must be provided: a string, or an array of messages {role, content}.');
  // The document's message alternatives are call artifacts (UserMessage needs time, endTime…) and
  // refuse the {role, content} its own example sends: zod checks `input`, the document the rest.
  checkBody(route, { ...body, input: '' });
  const parsed = parseWith(channel === 'web' ? webChatSchema : chatSchema, body) as ChatRequest;
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
  return { parsed, sentString: typeof body.input === 'string' };
}
