import type { Db } from '@engage/db';
import type { AnswerRequestsAnswer } from '@engage/http-contract/conversations';
import { Hono } from 'hono';
import type { AuditLog } from '../admin/audit.js';
import type { Mailer } from '../auth/mail.js';
import { isUuid } from '../auth/tokens.js';
import type { AuthEnv } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import { sendAnswerMail } from './answer-mail.js';
import {
  answerWaiting,
  findAnswerRequest,
  listAnswerRequests,
  markSeen,
  unseenBy,
} from './answer-requests.js';

/**
 * The operators' side of answers by mail, under /api/conversations (whose guard lets only
 * operators and admins in): the waiting visitors and the mails sent, a failed send retried, and
 * the mailing that follows a saved answer. Each operator's first sight of an address is audited.
 * @module
 */

export interface AnswerMailing {
  /** After an answer is saved: mails every visitor waiting for that question. */
  afterSave(
    assistantId: string,
    questionKey: string,
    answer: string,
  ): Promise<{ mailed: number; notMailed: number }>;
  routes: Hono<AuthEnv>;
}

export interface AnswerMailingOptions {
  db: Db;
  mailer: Mailer;
  siteTitle: string;
  audit: AuditLog;
  logger?: Logger;
}

export function answerMailing({ db, mailer, siteTitle, audit, logger }: AnswerMailingOptions): AnswerMailing {
  const send = (id: string) => sendAnswerMail(db, mailer, siteTitle, id, logger);
  const routes = new Hono<AuthEnv>();

  routes.get('/answer-requests', async (c) => {
    c.header('Cache-Control', 'no-store');
    const requests = await listAnswerRequests(db);
    const user = c.get('user');
    // Audited before the addresses are answered: no address is shown without its entry.
    const unseen = await unseenBy(
      db,
      user.id,
      requests.map((r) => r.id),
    );
    for (const request of requests.filter((r) => unseen.has(r.id)))
      await audit.record(user, 'visitor_address.read', [], request.question.slice(0, 200));
    await markSeen(db, user.id, [...unseen]);
    const body: AnswerRequestsAnswer = { requests };
    return c.json(body, 200);
  });

  routes.post('/answer-requests/:id/send', async (c) => {
    const id = c.req.param('id');
    const found = isUuid(id) ? await findAnswerRequest(db, id) : null;
    if (!found)
      return c.json(
        { error: 'not_found', message: 'No visitor is waiting under this id: it may have expired.' },
        404,
      );
    if (found.sentAt)
      return c.json(
        { error: 'already_sent', message: 'The answer was already mailed to this visitor: it is sent once.' },
        409,
      );
    if (!found.answeredAt)
      return c.json({ error: 'not_answered', message: 'Save an answer to this question first.' }, 409);
    const outcome = await send(id);
    if (outcome === 'skipped')
      return c.json({ error: 'send_in_progress', message: 'This answer is being mailed right now.' }, 409);
    const after = await findAnswerRequest(db, id);
    if (outcome === 'failed')
      return c.json(
        {
          error: 'send_failed',
          message: `The mail could not be sent: ${after?.sendError ?? 'unknown reason'}`,
        },
        502,
      );
    return c.json({ request: after }, 200);
  });

  return {
    routes,
    async afterSave(assistantId, questionKey, answer) {
      const ids = await answerWaiting(db, assistantId, questionKey, answer);
      let mailed = 0;
      let notMailed = 0;
      for (const id of ids) {
        const outcome = await send(id);
        if (outcome === 'sent') mailed++;
        else if (outcome === 'failed') notMailed++;
      }
      return { mailed, notMailed };
    },
  };
}
