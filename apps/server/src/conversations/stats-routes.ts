import type { Db } from '@engage/db';
import { statsQuerySchema } from '@engage/http-contract/conversations';
import type { VapiClient } from '@engage/vapi-client';
import { Hono } from 'hono';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';
import type { Logger } from '../platform/logger.js';
import { syncConversationIndex } from './conversation-index.js';
import { conversationStats } from './stats.js';

/**
 * `GET /api/conversations/stats?days=30` (under the operators' guard): the trends. The index is
 * brought up to date from the provider at most every SYNC_EVERY_MS (one sync at a time, waited for
 * at most SYNC_WAIT_MS); a failed or unfinished sync answers the figures as they were, with the time
 * they are from.
 * @module
 */

export const SYNC_EVERY_MS = 30_000;
/**
 * How long a request waits for a sync: the first one of a large account reads for a while, and the
 * page should not hang meanwhile. Past it the figures are answered as the index has them (with the
 * time they are from: null before the first sync has ended), and the sync goes on.
 */
export const SYNC_WAIT_MS = 5_000;

export interface StatsRoutesOptions {
  db: Db;
  vapi: VapiClient;
  siteAssistantIds: readonly string[];
  phrases: readonly string[] | undefined;
  logger?: Logger;
  now?: () => number;
  /** Tests shorten it. */
  syncWaitMs?: number;
}

export function statsRoutes(options: StatsRoutesOptions): Hono<AuthEnv> {
  const now = options.now ?? Date.now;
  let indexedAt: number | null = null;
  let syncing: Promise<void> | null = null;
  const sync = () =>
    (syncing ??= syncConversationIndex(options)
      .then(() => {
        indexedAt = now();
      })
      .catch((error: unknown) => {
        options.logger?.warn('stats: the provider could not be read', {
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        syncing = null;
      }));

  return new Hono<AuthEnv>().get('/stats', async (c) => {
    const query = readQuery(c, statsQuerySchema);
    if (!query.ok) return query.response;
    if (indexedAt === null || now() - indexedAt >= SYNC_EVERY_MS) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.syncWaitMs ?? SYNC_WAIT_MS);
      });
      await Promise.race([sync(), waited]);
      clearTimeout(timer);
    }
    c.header('Cache-Control', 'no-store');
    const at = indexedAt === null ? null : new Date(indexedAt).toISOString();
    return c.json(await conversationStats(options.db, query.data.days, now(), at), 200);
  });
}
