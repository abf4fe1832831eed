import type { Db } from '@engage/db';
import {
  callSchema,
  chatSchema,
  toConversations,
  unansweredIn,
  type Conversation,
} from '@engage/http-contract/conversations';
import {
  checkVisitorEmail,
  CONVERSATION_ID,
  type AnswerRequestCreated,
  type ConversationRef,
} from '@engage/http-contract/visitor-mail';
import { addressKey, createLimiter, retryAfterSeconds, type LimitStore } from '@engage/rate-limit';
import { dataOf, isVapiApiError, type VapiClient } from '@engage/vapi-client';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { clientIp } from '../platform/client-address.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { addAnswerRequests } from './answer-requests.js';

/**
 * `POST /api/answer-requests`, for visitors (no sign-in; other sites' widgets too, by the embed
 * rules): an address left for the owner's answers to the questions of one conversation that the
 * assistant could not answer. The server reads that conversation from the provider itself, so only
 * a conversation of the site's assistants with an unanswered question can take an address, and
 * only its own questions are recorded. Limited per client address and per visitor address, so the
 * site cannot be used to mail someone repeatedly; the address is never answered back.
 * @module
 */

const DAY_MS = 86_400_000;

export const answerRequestBodySchema = z.strictObject({
  conversation: z.strictObject({
    kind: z.enum(['chat', 'call'], 'conversation.kind must be "chat" or "call"'),
    id: z.string().regex(CONVERSATION_ID, 'conversation.id must be a conversation id'),
  }),
  email: z.string().transform((text, ctx) => {
    const checked = checkVisitorEmail(text);
    if (checked.ok) return checked.email;
    ctx.addIssue({ code: 'custom', message: checked.message });
    return z.NEVER;
  }),
});

export interface AnswerRequestRouteOptions {
  db: Db;
  vapi: VapiClient;
  siteAssistantIds: readonly string[];
  phrases: readonly string[] | undefined;
  /** Days an address is kept after its conversation started. */
  keepDays: number;
  limitStore: LimitStore;
  perEmailPerDay: number;
  perClientPerHour: number;
  /** False when no mail could reach the visitor (hosted auth without SMTP_URL): every request is refused. */
  offered?: boolean;
  /** After an address is recorded: the kept scan is dropped, so the owner sees the question at once. */
  onRecorded?: () => Promise<void>;
  logger?: Logger;
  now?: () => number;
}

const refuse = (c: Context, status: 404 | 409 | 429 | 502, error: string, message: string) =>
  c.json({ error, message }, status);

const NOT_FOUND = 'This conversation was not found: it may have been deleted.';

/** The conversation the visitor names, as the provider has it; null when it has none. */
async function readConversation(vapi: VapiClient, ref: ConversationRef): Promise<Conversation | null> {
  try {
    if (ref.kind === 'call') {
      const call = callSchema.safeParse(
        await dataOf(vapi.GET('/call/{id}', { params: { path: { id: ref.id } } })),
      );
      return call.success ? (toConversations([call.data], [])[0] ?? null) : null;
    }
    const chat = chatSchema.safeParse(
      await dataOf(vapi.GET('/chat/{id}', { params: { path: { id: ref.id } } })),
    );
    return chat.success ? (toConversations([], [chat.data])[0] ?? null) : null;
  } catch (error) {
    if (isVapiApiError(error) && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export function answerRequestRoute(options: AnswerRequestRouteOptions): Hono {
  const now = options.now ?? Date.now;
  const store = { store: options.limitStore, now };
  const perClient = createLimiter(
    'answer-requests-client',
    { burst: options.perClientPerHour, perWindow: options.perClientPerHour, windowMs: 3_600_000 },
    store,
  );
  const perEmail = createLimiter(
    'answer-requests-email',
    { burst: options.perEmailPerDay, perWindow: options.perEmailPerDay, windowMs: DAY_MS },
    store,
  );
  const site = new Set(options.siteAssistantIds);

  return new Hono().post('/', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (options.offered === false)
      return c.json({ error: 'not_offered', message: 'This site does not send answers by mail.' }, 404);
    const parsed = await readJsonBody(c, answerRequestBodySchema);
    if (!parsed.ok) return parsed.response;
    const { conversation: ref, email } = parsed.data;

    const client = await perClient.take(addressKey(clientIp(c)));
    if (!client.allowed) {
      c.header('Retry-After', String(retryAfterSeconds(client)));
      return refuse(c, 429, 'rate_limited', 'Too many requests from this network: try again later.');
    }

    let conversation: Conversation | null;
    try {
      conversation = await readConversation(options.vapi, ref);
    } catch (error) {
      options.logger?.warn('answer requests: the provider could not be read', {
        error: error instanceof Error ? error.message : String(error),
      });
      return refuse(c, 502, 'provider_error', 'The conversation could not be read just now: try again.');
    }
    // Another owner's conversation reads as none: the route tells nothing about it.
    if (!conversation?.assistantId || (site.size > 0 && !site.has(conversation.assistantId)))
      return refuse(c, 404, 'conversation_not_found', NOT_FOUND);
    const expiresAt = conversation.startedAt + options.keepDays * DAY_MS;
    if (expiresAt <= now()) return refuse(c, 404, 'conversation_not_found', NOT_FOUND);
    const questions = unansweredIn(conversation, options.phrases);
    if (questions.length === 0)
      return refuse(
        c,
        409,
        'nothing_unanswered',
        'The assistant answered everything in this conversation: there is no question to answer by mail.',
      );

    // Counted by the address's lower-case form: Case or spacing does not make a second address.
    const byEmail = await perEmail.take(email.toLowerCase());
    if (!byEmail.allowed) {
      c.header('Retry-After', String(retryAfterSeconds(byEmail)));
      return refuse(
        c,
        429,
        'rate_limited',
        'This address has asked for enough answers today: try again tomorrow.',
      );
    }
    await addAnswerRequests(
      options.db,
      questions.map((q) => ({
        conversationId: ref.id,
        assistantId: conversation.assistantId!,
        question: q.question,
        questionKey: q.key,
        email,
        expiresAt: new Date(expiresAt),
      })),
    );
    await options.onRecorded?.();
    const created: AnswerRequestCreated = { questions: questions.length, keepDays: options.keepDays };
    return c.json(created, 201);
  });
}
