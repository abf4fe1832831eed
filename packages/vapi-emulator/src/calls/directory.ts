/** What the local call rooms ask of the calls (rooms/ holds the rooms themselves). */
import type { EmulatorContext } from '../context.js';
import { json } from '../db.js';
import { NO_DOCUMENTS } from '../knowledge/retrieval.js';
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
  /** Records a room's status change on the call (fire and forget; failures are logged). */
  onStatus(callId: string, update: { status: 'in-progress' | 'ended'; endedReason?: string }): void;
  /** The call's assistant's answer to a question typed during the call, from its documents. */
  answer(callId: string, question: string): Promise<string>;
}

export function callDirectory(
  ctx: EmulatorContext,
  logger?: { warn(msg: string, fields?: Record<string, unknown>): void },
): EmulatorCallDirectory {
  const calls = callStore(ctx);
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
    onStatus(callId, update) {
      ctx.db
        .query(
          `update emulator_calls set status = $2, ended_reason = coalesce($3, ended_reason), updated_at = $4
           where id = $1 and status <> 'ended'`,
          [callId, update.status, update.endedReason ?? null, ctx.now()],
        )
        .catch((error: unknown) =>
          logger?.warn('emulator: could not record a call status', { callId, error: String(error) }),
        );
    },
  };
}
