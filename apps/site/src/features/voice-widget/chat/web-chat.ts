import { createVapiClient, dataOf, isVapiApiError, isVapiNetworkError } from '@engage/vapi-client';
import * as z from 'zod/mini';

/**
 * The provider's web chat (`POST /chat/web`, Vapi's CreateWebChatDTO → WebChat) as the browser
 * calls it: with the site's public key, so the same code talks to the real provider and to the
 * emulator. The body and the answer's reading are pure; `sendWebChat` sends it through @engage/vapi-client.
 * @module
 */

/** The longest message a visitor may send (characters). */
export const MAX_INPUT_CHARS = 2000;
/** The longest answer kept: the document's AssistantMessage.content maxLength. */
export const MAX_ANSWER_CHARS = 10_000;
/** A reply longer than this (bytes of text) is not parsed: nothing legitimate comes near it. */
export const MAX_RESPONSE_CHARS = 1_000_000;
/** How long an answer may take before the visitor is told and may try again. */
export const CHAT_TIMEOUT_MS = 30_000;

const MAX_ID_CHARS = 200;
const MAX_DETAIL_CHARS = 200;

export interface WebChatTarget {
  apiBaseUrl: string;
  publicKey: string;
  assistantId: string;
}

export interface WebChatTurn {
  input: string;
  /** The session of the earlier turns; absent for the first message. */
  sessionId?: string | null;
}

/** CreateWebChatDTO as the widget sends it (a type, so it is a JSON object to the client). */
export type WebChatBody = {
  assistantId: string;
  input: string;
  sessionId?: string;
};

/** What the visitor typed, trimmed, or why it cannot be sent. */
export function checkInput(text: string): { ok: true; input: string } | { ok: false; message: string } {
  const input = text.trim();
  if (!input) return { ok: false, message: 'Type a message first.' };
  if (input.length > MAX_INPUT_CHARS)
    return {
      ok: false,
      message: `Your message is too long: shorten it to ${MAX_INPUT_CHARS.toLocaleString('en')} characters.`,
    };
  return { ok: true, input };
}

/** The body of one turn (CreateWebChatDTO). Throws when the input cannot be sent (see checkInput). */
export function webChatBody(target: WebChatTarget, turn: WebChatTurn): WebChatBody {
  const checked = checkInput(turn.input);
  if (!checked.ok) throw new Error(checked.message);
  return {
    assistantId: target.assistantId,
    input: checked.input,
    ...(turn.sessionId && { sessionId: turn.sessionId }),
  };
}

const idSchema = z.string().check(z.minLength(1), z.maxLength(MAX_ID_CHARS));

/**
 * WebChat as far as the site reads it: an id, the session to send next time, and output messages
 * of any role (other roles, tool calls and extra fields are allowed and ignored).
 */
const webChatSchema = z.object({
  id: idSchema,
  sessionId: z.optional(idSchema),
  output: z
    .array(z.looseObject({ role: z.string(), content: z.optional(z.nullable(z.string())) }))
    .check(z.maxLength(100)),
});

export interface WebChatAnswer {
  id: string;
  /** Null when the provider sent none (the caller keeps the one it had). */
  sessionId: string | null;
  /** The assistant's messages of this turn, joined; never empty. */
  answer: string;
}

export type WebChatErrorKind = 'network' | 'timeout' | 'http' | 'invalid';

/** A failed turn, with a message the visitor can read. */
export class WebChatError extends Error {
  readonly kind: WebChatErrorKind;
  readonly status: number | null;
  constructor(kind: WebChatErrorKind, message: string, status: number | null = null) {
    super(message);
    this.name = 'WebChatError';
    this.kind = kind;
    this.status = status;
  }
}

const UNREADABLE = 'The assistant sent an answer this site cannot read. Please try again.';

/** The answer of a 2xx body; throws a WebChatError('invalid') when it is not a WebChat. */
export function parseWebChatResponse(body: unknown): WebChatAnswer {
  const parsed = webChatSchema.safeParse(body);
  if (!parsed.success) throw new WebChatError('invalid', UNREADABLE);
  const parts = parsed.data.output
    .filter((m) => m.role === 'assistant' && typeof m.content === 'string')
    .map((m) => (m.content ?? '').trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new WebChatError('invalid', 'The assistant sent no answer. Please try again.');
  let answer = parts.join('\n\n');
  if (answer.length > MAX_ANSWER_CHARS) answer = `${answer.slice(0, MAX_ANSWER_CHARS - 1)}…`;
  return { id: parsed.data.id, sessionId: parsed.data.sessionId ?? null, answer };
}

/** The provider's (NestJS) error message: a string, or a list for validation failures. */
function providerDetail(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const message = (body as { message?: unknown }).message;
  const text = Array.isArray(message)
    ? message.filter((m): m is string => typeof m === 'string').join('; ')
    : typeof message === 'string'
      ? message
      : '';
  // Control characters would only garble the line; the text is rendered as text, never as HTML.
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (!clean) return null;
  return clean.length > MAX_DETAIL_CHARS ? `${clean.slice(0, MAX_DETAIL_CHARS - 1)}…` : clean;
}

/** A readable message for a non-2xx answer (with the provider's own words where they help). */
export function httpErrorMessage(status: number, body: unknown): string {
  const detail = providerDetail(body);
  if (status === 401 || status === 403)
    return 'The assistant refused this site’s key, so text chat is unavailable right now.';
  if (status === 404) return 'This assistant could not be found.';
  if (status === 429) return 'Too many messages at once. Wait a moment, then try again.';
  if (status === 501) return 'Text chat is not available on this service.';
  if (status >= 500) return `The assistant’s service had a problem (${status}). Please try again.`;
  return detail
    ? `The assistant could not take this message: ${detail}`
    : `The assistant could not take this message (${status}).`;
}

export interface SendOptions {
  fetch?: typeof fetch;
  /** Aborts the request (the panel closing); the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Sends one turn and returns the assistant's answer. Rejects with a WebChatError the visitor can
 * read (network failure, timeout, HTTP error, unreadable answer), or with an AbortError when the
 * caller's signal aborted it. The request goes through @engage/vapi-client, like every other
 * provider request: its timeout, its abort and its error model.
 */
export async function sendWebChat(
  target: WebChatTarget,
  turn: WebChatTurn,
  options: SendOptions = {},
): Promise<WebChatAnswer> {
  const body = webChatBody(target, turn);
  const vapi = createVapiClient({
    baseUrl: target.apiBaseUrl,
    token: target.publicKey,
    timeoutMs: options.timeoutMs ?? CHAT_TIMEOUT_MS,
    maxBodyChars: MAX_RESPONSE_CHARS,
    ...(options.fetch && { fetch: options.fetch }),
  });
  let answer: unknown;
  try {
    answer = await dataOf(
      vapi.POST('/chat/web', { body, ...(options.signal && { signal: options.signal }) }),
    );
  } catch (error) {
    if (isVapiApiError(error))
      throw new WebChatError('http', httpErrorMessage(error.status, error.body), error.status);
    if (isVapiNetworkError(error))
      throw error.timedOut
        ? new WebChatError('timeout', 'The assistant took too long to answer. Please try again.')
        : new WebChatError('network', 'Could not reach the assistant. Check your connection and try again.');
    throw error; // the caller's abort
  }
  return parseWebChatResponse(answer);
}
