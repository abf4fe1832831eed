/**
 * How long conversations are kept (EMULATOR_CONVERSATION_DAYS): calls and chats older than the
 * cutoff go with their messages, at start and then every hour. The cutoff is a pure function; the
 * schedule only runs the prune on a timer that never keeps the process alive.
 * @module
 */
import { schedulePeriodic } from '@engage/jobs';
import type { EmulatorQueryable } from '../db.js';

export const DEFAULT_CONVERSATION_DAYS = 30;
/** The bounds a retention may be set to: a day at least, ten years at most. */
export const CONVERSATION_DAYS_RANGE = { min: 1, max: 3650 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the schedule prunes. */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Conversations created before this instant are pruned (one created exactly at it is kept). */
export function conversationCutoff(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < CONVERSATION_DAYS_RANGE.min || days > CONVERSATION_DAYS_RANGE.max)
    throw new RangeError(
      `Conversation retention must be a whole number of days from ${CONVERSATION_DAYS_RANGE.min} to ${CONVERSATION_DAYS_RANGE.max}.`,
    );
  return new Date(now.getTime() - days * DAY_MS);
}

export interface PruneCounts {
  calls: number;
  chats: number;
  sessions: number;
}

/**
 * Deletes the calls and chats created before `cutoff` (a call's messages are its own column, a
 * chat's are in the chat), then the sessions left without a chat and untouched since the cutoff.
 */
export async function pruneConversations(db: EmulatorQueryable, cutoff: Date): Promise<PruneCounts> {
  const calls = await db.query('delete from emulator_calls where created_at < $1', [cutoff]);
  const chats = await db.query('delete from emulator_chats where created_at < $1', [cutoff]);
  const sessions = await db.query(
    `delete from emulator_chat_sessions s where s.updated_at < $1
       and not exists (select 1 from emulator_chats c where c.session_id = s.id)`,
    [cutoff],
  );
  return { calls: calls.rowCount, chats: chats.rowCount, sessions: sessions.rowCount };
}

export interface ConversationRetentionOptions {
  db: EmulatorQueryable;
  /** Days a conversation is kept (default 30). */
  days?: number;
  now?: () => Date;
  /** Between two prunes (default an hour). */
  everyMs?: number;
  logger?: {
    info?(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

export interface ConversationRetention {
  /** Prunes now (a run already going is awaited instead of started twice). */
  runOnce(): Promise<PruneCounts | null>;
  /** Stops the timer and waits for a prune in flight, so the database can be closed after it. */
  stop(): Promise<void>;
}

/**
 * Prunes at once and then every `everyMs`. A failed prune is logged and tried again at the next
 * turn; it never stops the server.
 */
export function scheduleConversationRetention(options: ConversationRetentionOptions): ConversationRetention {
  const days = options.days ?? DEFAULT_CONVERSATION_DAYS;
  const now = options.now ?? (() => new Date());
  conversationCutoff(now(), days); // a bad retention fails here, not an hour later
  return schedulePeriodic({
    run: async () => {
      const counts = await pruneConversations(options.db, conversationCutoff(now(), days));
      if (counts.calls + counts.chats + counts.sessions > 0)
        options.logger?.info?.('emulator: old conversations pruned', { days, ...counts });
      return counts;
    },
    everyMs: options.everyMs ?? RETENTION_EVERY_MS,
    onError: (error) =>
      options.logger?.error('emulator: pruning old conversations failed', { error: String(error) }),
  });
}
