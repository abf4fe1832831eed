import type { Db } from '@engage/db';
import type { UnansweredAnswer } from '@engage/http-contract/conversations';
import type { LimitStore } from '@engage/rate-limit';
import type { Hono, MiddlewareHandler } from 'hono';
import { createAuditLog } from '../admin/audit.js';
import { siteMailer, type Mailer } from '../auth/mail.js';
import { sharedGeneration } from '../db/shared-generation.js';
import { answersByMailOffered, visitorAddressDays, type Config } from '../platform/config.js';
import type { AuthEnv, VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { ProviderClient } from '../provider/connection.js';
import { answerMailing } from './answer-request-admin-routes.js';
import { answerRequestRoute } from './answer-request-route.js';
import { deleteForConversation } from './answer-requests.js';
import { answersStore } from './answers-store.js';
import { assistantLock } from './assistant-lock.js';
import { dropFromIndex } from './conversation-index.js';
import { dismissedQuestions, dismissQuestion } from './dismissed-questions.js';
import { conversationRoutes, invalidateOnDelete } from './routes.js';
import { statsRoutes } from './stats-routes.js';
import { cachedScan } from './unanswered-cache.js';
import { scanUnanswered } from './unanswered-scan.js';

export interface ConversationsFeatureDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verify: VerifyAccessToken;
  /** How the server itself reaches the provider in use (the Answers documents, the scan). */
  provider: ProviderClient;
  /** Where the visitors' request limits count (the app's one store). */
  limitStore: LimitStore;
  /** Tests pass one; by default SMTP_URL or the outbox. */
  mailer?: Mailer;
}

export interface ConversationsFeature {
  /** `/api/conversations`: the Unanswered tab and the Answers documents. */
  routes: Hono<AuthEnv>;
  /** For `/api/provider/*`: a conversation deleted through the proxy drops the kept scan. */
  invalidateOnDelete: MiddlewareHandler;
  /** `/api/answer-requests`: a visitor leaves an address for the owner's answer (public). */
  answerRequests: Hono;
}

/**
 * The conversations feature: the Unanswered tab's scan (kept a minute) and the Answers documents,
 * saved one at a time per assistant, and the answers mailed to visitors who asked for them.
 */
export function conversationsFeature({
  config,
  db,
  logger,
  verify,
  provider,
  limitStore,
  mailer,
}: ConversationsFeatureDeps): ConversationsFeature {
  const answers = answersStore(provider.vapi, provider.fetchFile);
  // On PostgreSQL other instances may share the database: a save or deletion through any of them
  // drops every instance's kept scan (a counter in the database). PGlite is one process.
  const cache = cachedScan<UnansweredAnswer>(
    db.kind === 'postgres'
      ? {
          shared: sharedGeneration(db, 'unanswered'),
          onSharedError: (error) =>
            logger.warn('unanswered: the shared cache counter failed', {
              error: error instanceof Error ? error.message : String(error),
            }),
        }
      : {},
  );
  const siteAssistantIds = [
    config.ASSISTANT_ID_INDEX,
    config.ASSISTANT_ID_EDISCOVERY,
    config.ASSISTANT_ID_ONBOARDING,
  ];
  const mailing = answerMailing({
    db,
    mailer: mailer ?? siteMailer(config, db),
    siteTitle: config.siteTitle,
    audit: createAuditLog(db),
    logger,
  });
  const answerRequests = answerRequestRoute({
    db,
    vapi: provider.vapi,
    siteAssistantIds,
    phrases: config.UNANSWERED_PHRASES,
    keepDays: visitorAddressDays(config),
    limitStore,
    perEmailPerDay: config.ANSWER_REQUESTS_PER_EMAIL_PER_DAY,
    perClientPerHour: config.ANSWER_REQUESTS_PER_CLIENT_PER_HOUR,
    offered: answersByMailOffered(config),
    onRecorded: () => cache.invalidate(),
    logger,
  });
  const routes = conversationRoutes({
    mailing,
    stats: statsRoutes({
      db,
      vapi: provider.vapi,
      siteAssistantIds,
      phrases: config.UNANSWERED_PHRASES,
      logger,
    }),
    verify,
    store: answers,
    lock: assistantLock(db),
    siteAssistantIds,
    logger,
    cache,
    dismiss: (assistantId, question, by) => dismissQuestion(db, assistantId, question, by),
    scan: () =>
      scanUnanswered({
        vapi: provider.vapi,
        answers,
        siteAssistantIds,
        phrases: config.UNANSWERED_PHRASES,
        dismissed: (ids) => dismissedQuestions(db, ids),
      }),
  });
  return {
    routes,
    answerRequests,
    invalidateOnDelete: invalidateOnDelete(cache, async (id) => {
      await deleteForConversation(db, id);
      await dropFromIndex(db, id);
    }),
  };
}
