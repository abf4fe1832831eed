import type { Queryable } from '@engage/db';
import { escapeHtml, type Mail, type Mailer } from '../auth/mail.js';
import type { Logger } from '../platform/logger.js';
import { claimForSending, finishSending } from './answer-requests.js';

/**
 * The owner's answer mailed to a visitor who asked for it: the question, the answer, the site's
 * title and a line saying it is a one-time reply. No link of any kind (nothing to sign in with,
 * nothing to track), so the mail is the same whoever receives it.
 * @module
 */

export function answerMail(siteTitle: string, to: string, question: string, answer: string): Mail {
  const subject = `Your question to ${siteTitle}`;
  const oneTime = `This is a one-time reply: your address was used only to send it, and is deleted with the conversation. You will get no other mail from ${siteTitle} for this question.`;
  const paragraphs = [`You asked the assistant at ${siteTitle}:`, question, `The answer:`, answer, oneTime];
  return {
    userId: null,
    kind: 'visitor_answer',
    to,
    subject,
    text: paragraphs.join('\n\n'),
    html:
      `<h2>${escapeHtml(subject)}</h2>` +
      paragraphs.map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p)}</p>`).join(''),
  };
}

export type SendOutcome = 'sent' | 'failed' | 'skipped';

/**
 * Sends the answer of one request, once: claimed first (another instance or a second click finds
 * it taken: 'skipped'), then sent, then marked sent or failed with the reason (kept for a retry).
 */
export async function sendAnswerMail(
  db: Queryable,
  mailer: Mailer,
  siteTitle: string,
  id: string,
  logger?: Logger,
): Promise<SendOutcome> {
  const claimed = await claimForSending(db, id);
  if (!claimed) return 'skipped';
  try {
    await mailer.send(answerMail(siteTitle, claimed.email, claimed.question, claimed.answer));
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    // The address is the visitor's: not in the log, only the request's id.
    logger?.warn('answer mail: send failed', { id, error: reason });
    await finishSending(db, id, reason);
    return 'failed';
  }
  await finishSending(db, id, null);
  return 'sent';
}
