import type { Db } from '@engage/db';
import type { UnansweredAnswer } from '@engage/http-contract/conversations';
import type { Hono, MiddlewareHandler } from 'hono';
import { sharedGeneration } from '../db/shared-generation.js';
import type { Config } from '../platform/config.js';
import type { AuthEnv, VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { ProviderClient } from '../provider/connection.js';
import { answersStore } from './answers-store.js';
import { assistantLock } from './assistant-lock.js';
import { dismissedQuestions, dismissQuestion } from './dismissed-questions.js';
import { conversationRoutes, invalidateOnDelete } from './routes.js';
import { cachedScan } from './unanswered-cache.js';
import { scanUnanswered } from './unanswered-scan.js';

export interface ConversationsFeatureDeps {
  config: Config;
  db: Db;
  logger: Logger;
  verify: VerifyAccessToken;
  /** How the server itself reaches the provider in use (the Answers documents, the scan). */
  provider: ProviderClient;
}

export interface ConversationsFeature {
  /** `/api/conversations`: the Unanswered tab and the Answers documents. */
  routes: Hono<AuthEnv>;
  /** For `/api/provider/*`: a conversation deleted through the proxy drops the kept scan. */
  invalidateOnDelete: MiddlewareHandler;
}

/**
 * The conversations feature: the Unanswered tab's scan (kept a minute) and the Answers documents,
 * saved one at a time per assistant.
 */
export function conversationsFeature({
  config,
  db,
  logger,
  verify,
  provider,
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
  const routes = conversationRoutes({
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
  return { routes, invalidateOnDelete: invalidateOnDelete(cache) };
}
