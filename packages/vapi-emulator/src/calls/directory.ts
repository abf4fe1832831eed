/** What the local call rooms ask of the calls (rooms/ holds the rooms themselves). */
import type { EmulatorContext } from '../context.js';
import { json } from '../db.js';
import { NO_DOCUMENTS } from '../knowledge/retrieval.js';
import type { StoredCallMessage } from './artifact.js';
import { callStore } from './store.js';

/** What a local call room is told about its call. */
export interface RoomCallInfo {
  firstMessage: string | null;
  audioFormat?: { format: 'pcm_s16le' | 'mulaw'; sampleRate: number };
}

/** What a local call room needs to know about a call, and how it reports back. */
export interface EmulatorCallDirectory {
  /** The call's greeting and audio format, or null when there is no such call or it has ended. */
  resolveCall(callId: string): Promise<RoomCallInfo | null>;
  /**
   * Marks a queued call in progress for the connection about to join it, in one statement, so only
   * one connection on any instance gets it: 'busy' if another already holds it, 'ended' if it is over.
   */
  claimCall(callId: string): Promise<'claimed' | 'busy' | 'ended'>;
  /** Puts a claimed call back in the queue when its room was refused (fire and forget). */
  releaseCall(callId: string): void;
  /** Records a room's status change on the call (fire and forget; failures are logged). */
  onStatus(callId: string, update: { status: 'in-progress' | 'ended'; endedReason?: string }): void;
  /** Keeps a message of the call's conversation in its record (fire and forget; failures are logged). */
  onMessage(callId: string, message: StoredCallMessage): void;
  /** The call's assistant's answer to a question typed during the call, from its documents. */
  answer(callId: string, question: string): Promise<string>;
}

export function callDirectory(
  ctx: EmulatorContext,
  logger?: { warn(msg: string, fields?: Record<string, unknown>): void },
): EmulatorCallDirectory {
  const calls = callStore(ctx);
  /** The last append of each call still being written. */
  const appending = new Map<string, Promise<void>>();
  return {
    async resolveCall(callId) {
      const row = await calls.find(callId);
      if (!row || row.status === 'ended') return null;
      const data = json<{
        assistant?: { firstMessage?: unknown };
        transport?: { audioFormat?: { format: 'pcm_s16le' | 'mulaw'; sampleRate: number } };
      }>(row.data);
      const firstMessage =
        typeof data.assistant?.firstMessage === 'string' ? data.assistant.firstMessage : null;
      const format = data.transport?.audioFormat;
      return format
        ? { firstMessage, audioFormat: { format: format.format, sampleRate: format.sampleRate } }
        : { firstMessage };
    },
    async answer(callId, question) {
      const row = await calls.find(callId);
      const assistant = row && json<{ assistant?: Record<string, unknown> }>(row.data).assistant;
      return assistant ? ctx.localAssistant.reply(assistant, question) : NO_DOCUMENTS;
    },
    async claimCall(callId) {
      const { rows } = await ctx.db.query<{ status: string }>(
        `with taken as (
           update emulator_calls set status = 'in-progress', updated_at = $2
            where id = $1 and status = 'queued' returning 'claimed'::text as status)
         select status from taken
         union all
         select status from emulator_calls where id = $1 and not exists (select 1 from taken)`,
        [callId, ctx.now()],
      );
      // A row still 'queued' here was seen before a concurrent claim committed: that one holds it.
      const status = rows[0]?.status;
      if (status === 'claimed') return 'claimed';
      return status === undefined || status === 'ended' ? 'ended' : 'busy';
    },
    releaseCall(callId) {
      ctx.db
        .query(`update emulator_calls set status = 'queued' where id = $1 and status = 'in-progress'`, [
          callId,
        ])
        .catch((error: unknown) =>
          logger?.warn('emulator: could not release a call', { callId, error: String(error) }),
        );
    },
    onStatus(callId, update) {
      ctx.db
        .query(
          `update emulator_calls set status = $2, ended_reason = coalesce($3, ended_reason), updated_at = $4,
             started_at = case when $2 = 'in-progress' then coalesce(started_at, $4) else started_at end,
             ended_at = case when $2 = 'ended' then $4 else ended_at end
           where id = $1 and status <> 'ended'`,
          [callId, update.status, update.endedReason ?? null, ctx.now()],
        )
        .catch((error: unknown) =>
          logger?.warn('emulator: could not record a call status', { callId, error: String(error) }),
        );
    },
    onMessage(callId, message) {
      // One call's messages are appended one after the other, in the order the room told them.
      const tail = (appending.get(callId) ?? Promise.resolve())
        .then(() => calls.addMessage(callId, message))
        .catch((error: unknown) =>
          logger?.warn('emulator: could not record a call message', { callId, error: String(error) }),
        );
      appending.set(callId, tail);
      void tail.then(() => {
        if (appending.get(callId) === tail) appending.delete(callId);
      });
    },
  };
}
