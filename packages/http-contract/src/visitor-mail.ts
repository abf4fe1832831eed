/**
 * A visitor asking for the owner's answer by mail, as the widget and the server both check it. No
 * zod here: the widget loads this with the chat, where every byte counts.
 * @module
 */

/** POST: a visitor leaves an address for the answers to a conversation's unanswered questions. */
export const ANSWER_REQUESTS_PATH = '/api/answer-requests';

/** RFC 5321's longest path, which is also the longest address a mail server takes. */
export const MAX_EMAIL_CHARS = 254;

/** Which conversation: the chat turn the widget was answered in, or the call. */
export type ConversationRef = { kind: 'chat' | 'call'; id: string };

/**
 * The provider's ids as the server accepts them in a request: they become a path segment, so no
 * slash, and not only dots ("." and ".." would name another route).
 */
export const CONVERSATION_ID = /^(?!\.+$)[A-Za-z0-9._:-]{1,200}$/;

// One @, a dot in the domain, no spaces, quotes, angle brackets or commas (no second recipient, no
// header folding): what a person types as their address, not every form RFC 5322 allows.
const ADDRESS = /^[^\s@"<>,;()[\]\\]+@[^\s@"<>,;()[\]\\]+\.[^\s@"<>,;()[\]\\.]{2,}$/;

/** The address as typed (trimmed), or why it is refused, written for the visitor. */
export function checkVisitorEmail(
  text: string,
): { ok: true; email: string } | { ok: false; message: string } {
  const email = text.trim();
  if (!email) return { ok: false, message: 'Enter your email address.' };
  if (email.length > MAX_EMAIL_CHARS)
    return { ok: false, message: `That address is too long (at most ${MAX_EMAIL_CHARS} characters).` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(email) || !ADDRESS.test(email))
    return { ok: false, message: 'That does not look like an email address: use the form name@example.com.' };
  return { ok: true, email };
}

/** POST /api/answer-requests's answer: never the address, which is not shown back to anyone. */
export interface AnswerRequestCreated {
  /** How many of the conversation's questions the owner will answer by mail. */
  questions: number;
  /** How long the address is kept (with the conversation). */
  keepDays: number;
}

/** The line the widget shows by the box: what the address is for and how long it is kept. */
export const addressUseLine = (keepDays: number): string =>
  `Used only to send you the owner's answer to this question, once. Deleted with this conversation after ${keepDays} ${
    keepDays === 1 ? 'day' : 'days'
  }.`;
