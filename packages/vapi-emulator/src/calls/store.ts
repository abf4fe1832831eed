/**
 * Calls as stored (emulator_calls) and as answered: the whole call to the private key, the
 * provider's public shape to a public key (no assistant, so no system prompt, tools or files).
 * Stored calls are bounded: none older than the retention (EMULATOR_CONVERSATION_DAYS), at most
 * `maxStoredCalls`, each with at most CALL_MESSAGE_LIMITS.perCall messages.
 * @module
 */
import type { EmulatorContext } from '../context.js';
import { conversationCutoff, DEFAULT_CONVERSATION_DAYS } from '../conversations/retention.js';
import { iso, json, type EmulatorQueryable } from '../db.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { CALL_MESSAGE_LIMITS, callConversation, type StoredCallMessage } from './artifact.js';

export interface CallRow {
  id: string;
  status: string;
  ended_reason: string | null;
  data: unknown;
  messages?: unknown;
  started_at?: Date | string | null;
  ended_at?: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** How long a call is kept by default (EMULATOR_CONVERSATION_DAYS): the provider's call logs likewise expire. */
export const CALL_RETENTION_MS = DEFAULT_CONVERSATION_DAYS * 24 * 60 * 60 * 1000;

/**
 * The call as GET /call answers it, with its conversation (webCallUrl and artifactPlan are the
 * creation answer's only).
 */
export function toCall(row: CallRow): Record<string, unknown> {
  const { artifactPlan: _only, webCallUrl: _post, ...data } = json<Record<string, unknown>>(row.data);
  return {
    ...data,
    id: row.id,
    status: row.status,
    ...(row.ended_reason ? { endedReason: row.ended_reason } : {}),
    ...callConversation(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** What a public key hears of a web call it created: enough to join it, nothing of the assistant. */
export function toPublicCall(row: CallRow): Record<string, unknown> {
  const data = json<Record<string, unknown>>(row.data);
  const artifactPlan = data.artifactPlan as { videoRecordingEnabled?: boolean } | undefined;
  return {
    id: row.id,
    orgId: data.orgId,
    type: data.type,
    status: row.status,
    ...(typeof data.assistantId === 'string' ? { assistantId: data.assistantId } : {}),
    webCallUrl: data.webCallUrl,
    transport: data.transport,
    artifactPlan: { videoRecordingEnabled: artifactPlan?.videoRecordingEnabled === true },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Drops calls past the retention and all but the `keep` newest. */
async function pruneCalls(db: EmulatorQueryable, cutoff: Date, keep: number): Promise<void> {
  await db.query('delete from emulator_calls where created_at < $1', [cutoff]);
  await db.query(
    `delete from emulator_calls where id in
       (select id from emulator_calls order by created_at desc, id desc offset $1)`,
    [Math.max(0, keep)],
  );
}

export function callStore(
  ctx: Pick<EmulatorContext, 'db' | 'now' | 'maxStoredCalls'> & { conversationDays?: number },
) {
  const days = ctx.conversationDays ?? DEFAULT_CONVERSATION_DAYS;
  return {
    /** Stores a new call, the oldest (and the expired) going first so the table stays bounded. */
    async insert(id: string, assistantId: string | undefined, call: Record<string, unknown>) {
      const now = ctx.now();
      return ctx.db.transaction(async (tx) => {
        await pruneCalls(tx, conversationCutoff(now, days), ctx.maxStoredCalls - 1);
        const { rows } = await tx.query<CallRow>(
          `insert into emulator_calls (id, org_id, assistant_id, status, data, created_at, updated_at)
           values ($1, $2, $3, 'queued', $4::jsonb, $5, $5) returning *`,
          [id, EMULATOR_ORG_ID, assistantId ?? null, JSON.stringify(call), now],
        );
        return rows[0]!;
      });
    },
    async find(id: string): Promise<CallRow | null> {
      const { rows } = await ctx.db.query<CallRow>(
        'select * from emulator_calls where id = $1 and org_id = $2',
        [id, EMULATOR_ORG_ID],
      );
      return rows[0] ?? null;
    },
    /** Deletes a call with its messages; the call as it was, or null when there is none. */
    async remove(id: string): Promise<CallRow | null> {
      const { rows } = await ctx.db.query<CallRow>(
        'delete from emulator_calls where id = $1 and org_id = $2 returning *',
        [id, EMULATOR_ORG_ID],
      );
      return rows[0] ?? null;
    },
    /** Appends a message a room heard or said, the oldest going past the cap (one statement, so appends never lose each other). */
    async addMessage(id: string, message: StoredCallMessage): Promise<void> {
      const kept = { ...message, message: message.message.slice(0, CALL_MESSAGE_LIMITS.chars) };
      await ctx.db.query(
        `update emulator_calls set updated_at = $4, messages = case
           when jsonb_array_length(messages) >= $3 then (messages - 0) || $2::jsonb
           else messages || $2::jsonb end
         where id = $1`,
        [id, JSON.stringify([kept]), CALL_MESSAGE_LIMITS.perCall, ctx.now()],
      );
    },
  };
}
