import { isLockTimeout } from '@engage/db';
import {
  dismissQuestionBodySchema,
  normaliseQuestion,
  saveAnswerBodySchema,
  type SaveAnswerResult,
  type UnansweredAnswer,
} from '@engage/http-contract/conversations';
import { isVapiApiError, isVapiNetworkError } from '@engage/vapi-client';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { requireOperator, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readJsonBody } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { forwardedRoute } from '../provider/proxy.js';
import type { AnswerMailing } from './answer-request-admin-routes.js';
import { AnswersFileFull, type AnswersStore } from './answers-store.js';
import type { AssistantLock } from './assistant-lock.js';
import type { CachedScan } from './unanswered-cache.js';

/**
 * `/api/conversations`, operators and admins only (as /api/provider):
 * - `GET /unanswered`: the questions the site's assistants could not answer, scanned by the server
 *   and kept a minute (conversations/unanswered-cache.ts), so opening the tab again reads nothing;
 * - `POST /dismissed`: a question the operator does not mean to answer ("hi", "thanks") leaves the
 *   tab, and stays out when asked again;
 * - `POST /answers`: an operator's answer joins that assistant's Answers document. The server reads,
 *   appends, uploads and deletes the old version while holding the assistant's lock, so answers
 *   saved at the same moment (two operators, two instances) are all kept. The visitors who left
 *   an address for that question are then mailed the answer;
 * - `GET /stats?days=30`: conversations per day, the share unanswered, visitors waiting, answers
 *   mailed (stats-routes.ts);
 * - `GET /answer-requests`, `POST /answer-requests/{id}/send`: those visitors, and a failed mail
 *   sent again (answer-request-admin-routes.ts).
 * @module
 */

export interface ConversationRoutesOptions {
  verify: VerifyAccessToken;
  store: AnswersStore;
  lock: AssistantLock;
  /** The assistants the site offers (ASSISTANT_ID_*): the only ones whose Answers can be saved. */
  siteAssistantIds: readonly string[];
  logger?: Logger;
  /** The scan of the Unanswered tab, and its short-lived cache (dropped by each saved answer). */
  scan: () => Promise<UnansweredAnswer>;
  cache: CachedScan<UnansweredAnswer>;
  /** Keeps a question out of the tab for good (conversations/dismissed-questions.ts). */
  dismiss: (assistantId: string, question: string, dismissedBy: string) => Promise<void>;
  /** Answers by mail (answer-request-admin-routes.ts): its routes, and the mails after a save. */
  mailing?: AnswerMailing;
  /** GET /stats, the trends (stats-routes.ts). */
  stats?: Hono<AuthEnv>;
}

/** A provider failure as the caller sees it: 404 for a missing assistant, else 502. */
function providerFailure(error: unknown, what: string) {
  if (isVapiApiError(error) && error.status === 404)
    return {
      status: 404 as const,
      body: { error: 'assistant_not_found', message: 'The provider has no assistant with this id.' },
    };
  const reason = error instanceof Error ? error.message : String(error);
  return {
    status: 502 as const,
    body: { error: 'provider_error', message: `The voice provider ${what}: ${reason}` },
  };
}

/**
 * On /api/provider: a conversation deleted through the proxy drops the cached unanswered questions
 * (its questions must not be offered again), and the addresses visitors left in it. The route is the one the proxy parsed and forwarded
 * (provider/proxy.ts), so every spelling it accepts (percent-encoded ids, say) counts, and none
 * it refuses does.
 */
export function invalidateOnDelete(
  cache: CachedScan<unknown>,
  onDeleted?: (conversationId: string) => Promise<void>,
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const route = forwardedRoute(c.req.raw);
    const deleted = route?.method === 'DELETE' ? /^\/(?:call|chat)\/([^/]+)$/.exec(route.path) : null;
    if (!deleted || c.res.status >= 300) return;
    await cache.invalidate();
    // The visitors' addresses left in it go with it.
    await onDeleted?.(decodeURIComponent(deleted[1]!));
  };
}

/** A failure of the provider's side of a save (a database failure of the lock is not one). */
class SaveFailed extends Error {
  constructor(readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * A lock wait that ran out (lock_timeout: 55P03, or the statement timeout: 57014) while another
 * instance saves for the same assistant: the database works, the assistant is busy.
 */
const isLockWaitTimeout = (error: unknown): boolean =>
  isLockTimeout(error) || (error as { code?: unknown } | null)?.code === '57014';

const unknownAssistant = (c: Context, assistantId: string) =>
  c.json(
    {
      error: 'unknown_assistant',
      message: `This site offers no assistant "${assistantId}": answers are saved for its own assistants only.`,
    },
    404,
  );

export function conversationRoutes(options: ConversationRoutesOptions): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const siteAssistants = new Set(options.siteAssistantIds);
  app.use('*', requireOperator(options.verify));
  if (options.mailing) app.route('/', options.mailing.routes);
  if (options.stats) app.route('/', options.stats);

  app.get('/unanswered', async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      return c.json(await options.cache.get(options.scan), 200);
    } catch (error) {
      // The scan touches no database of ours: any failure is the provider's (or its answer's).
      const { body } = providerFailure(error, 'could not be read');
      options.logger?.warn('unanswered: scan failed', { error: body.message });
      return c.json({ error: 'provider_error', message: body.message }, 502);
    }
  });

  app.post('/dismissed', async (c) => {
    const parsed = await readJsonBody(c, dismissQuestionBodySchema);
    if (!parsed.ok) return parsed.response;
    const { assistantId, question } = parsed.data;
    if (!siteAssistants.has(assistantId)) return unknownAssistant(c, assistantId);
    await options.dismiss(assistantId, question, c.get('user').id);
    await options.cache.invalidate();
    return c.json({ dismissed: { assistantId, question } }, 200);
  });

  app.post('/answers', async (c) => {
    const parsed = await readJsonBody(c, saveAnswerBodySchema);
    if (!parsed.ok) return parsed.response;
    const { assistantId, question, answer } = parsed.data;
    // Only the site's own assistants, checked before the lock: the in-process queue and the
    // PostgreSQL advisory lock are keyed by assistant id, so they can be taken only for these few
    // ids and never for as many ids as callers can invent; nor is the provider asked about others.
    if (!siteAssistants.has(assistantId)) return unknownAssistant(c, assistantId);
    // Where the save got to when the lock failed: still waiting for it, or done at the provider.
    const progress = { started: false, saved: false };
    try {
      await options.lock(assistantId, async () => {
        progress.started = true;
        await options.store.saveAnswer(assistantId, question, answer).catch((error: unknown) => {
          throw new SaveFailed(error);
        });
        progress.saved = true;
      });
    } catch (failure) {
      if (progress.saved) {
        // The lock's COMMIT or release failed after the provider took the answer: it is saved (the
        // transaction held only the advisory lock), so the caller hears so and the scan is dropped.
        options.logger?.warn('answers: saved, but releasing the lock failed', {
          assistantId,
          error: failure instanceof Error ? failure.message : String(failure),
        });
      } else if (!progress.started && isLockWaitTimeout(failure)) {
        return c.json(
          {
            error: 'save_in_progress',
            message: 'Another answer for this assistant is being saved. Try again in a moment.',
          },
          409,
        );
      } else {
        // The database's own failures go on to the app's handler (503 database_unavailable).
        if (!(failure instanceof SaveFailed)) throw failure;
        if (failure.cause instanceof AnswersFileFull)
          return c.json({ error: 'answers_file_full', message: failure.cause.message }, 413);
        options.logger?.warn('answers: save failed', {
          assistantId,
          error: failure.message,
          network: isVapiNetworkError(failure.cause),
        });
        const { status, body } = providerFailure(
          failure.cause,
          'did not take the answer, so nothing was changed',
        );
        return c.json(body, status);
      }
    }
    await options.cache.invalidate();
    // The visitors waiting for this question get the answer: a failed send is kept for a retry.
    const mails = options.mailing
      ? await options.mailing.afterSave(assistantId, normaliseQuestion(question), answer)
      : { mailed: 0, notMailed: 0 };
    const result: SaveAnswerResult = { saved: true, ...mails };
    return c.json(result, 200);
  });
  return app;
}
