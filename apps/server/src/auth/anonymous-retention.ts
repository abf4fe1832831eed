/**
 * The schedule that deletes anonymous users past AUTH_ANONYMOUS_RETENTION_DAYS (anonymous.ts does
 * the deleting). Sign-ins prune a batch too, but only while sign-ins come: after a flood that stops,
 * its users would stay until the next one. So the server also prunes at start and then every hour,
 * on a timer that never keeps the process alive; a failed prune is logged and tried again at the
 * next turn, never a crash. Every instance runs it; the deletes are idempotent.
 * @module
 */
import { schedulePeriodic } from '@engage/jobs';

/** How often the schedule prunes. */
export const ANONYMOUS_PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Users deleted per statement, and statements per turn: a turn's work stays bounded. */
export const ANONYMOUS_PRUNE_BATCH = 500;
const MAX_BATCHES_PER_TURN = 100;

export interface AnonymousRetentionOptions {
  /** Deletes up to `limit` expired anonymous users; how many went (AuthService.pruneAnonymousUsers). */
  prune(limit: number): Promise<number>;
  /** Between two prunes (default an hour). */
  everyMs?: number;
  logger?: {
    info?(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

export interface AnonymousRetention {
  /** Prunes now (a run already going is awaited instead of started twice); null when it failed. */
  runOnce(): Promise<number | null>;
  /** Stops the timer and waits for a prune in flight, so the database can be closed after it. */
  stop(): Promise<void>;
}

async function pruneAll(prune: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TURN; batch++) {
    const deleted = await prune(ANONYMOUS_PRUNE_BATCH);
    total += deleted;
    if (deleted < ANONYMOUS_PRUNE_BATCH) break;
  }
  return total;
}

/** Prunes at once and then every `everyMs` until `stop()`. */
export function scheduleAnonymousRetention(options: AnonymousRetentionOptions): AnonymousRetention {
  return schedulePeriodic({
    run: async () => {
      const deleted = await pruneAll(options.prune);
      if (deleted > 0) options.logger?.info?.('auth: expired anonymous users deleted', { deleted });
      return deleted;
    },
    everyMs: options.everyMs ?? ANONYMOUS_PRUNE_EVERY_MS,
    onError: (error) =>
      options.logger?.error('auth: deleting expired anonymous users failed', { error: String(error) }),
  });
}
