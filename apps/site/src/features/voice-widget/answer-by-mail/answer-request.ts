import {
  ANSWER_REQUESTS_PATH,
  checkVisitorEmail,
  type ConversationRef,
} from '@engage/http-contract/visitor-mail';

/**
 * A visitor's request for the owner's answer by mail (POST /api/answer-requests on Engage's own
 * server, not the provider): the address checked first, then sent with the conversation it is for.
 * Every outcome is a sentence the widget shows by the box.
 * @module
 */

/** What the widget needs to offer it: Engage's origin, and how long the address is kept. */
export interface AnswerByMail {
  origin: string;
  keepDays: number;
  /** The owner's UNANSWERED_PHRASES, when configured (else the built-in list). */
  phrases?: readonly string[];
}

export type AnswerRequestResult =
  | { ok: true }
  /** `field: 'email'`: the address is what is wrong (the box says so). */
  | { ok: false; message: string; field?: 'email' };

const TIMEOUT_MS = 15_000;

/** The server's answer for a refused request, in the visitor's words. */
function refusal(status: number, body: unknown): AnswerRequestResult {
  const { error, message, field } = (body ?? {}) as { error?: unknown; message?: unknown; field?: unknown };
  const said = typeof message === 'string' && message.length <= 300 ? message : null;
  if (status === 400 && field === 'email' && said) return { ok: false, message: said, field: 'email' };
  if (status === 429) return { ok: false, message: said ?? 'Too many requests: try again later.' };
  if ((status === 404 || status === 409) && typeof error === 'string' && said)
    return { ok: false, message: said };
  if (status === 403) return { ok: false, message: 'This site cannot take your address.' };
  return { ok: false, message: `Your address could not be taken (${status}). Please try again.` };
}

export async function requestAnswerByMail(
  origin: string,
  conversation: ConversationRef,
  typed: string,
  fetchImpl: typeof fetch = fetch,
): Promise<AnswerRequestResult> {
  const checked = checkVisitorEmail(typed);
  if (!checked.ok) return { ok: false, message: checked.message, field: 'email' };
  let response: Response;
  try {
    response = await fetchImpl(`${origin}${ANSWER_REQUESTS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ conversation, email: checked.email }),
      credentials: 'omit',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, message: 'Could not reach the site. Check your connection and try again.' };
  }
  if (response.ok) return { ok: true };
  return refusal(response.status, await response.json().catch(() => null));
}
