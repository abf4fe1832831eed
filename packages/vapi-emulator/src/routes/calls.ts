import { Hono } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery } from '../contract.js';
import { iso, json } from '../db.js';
import { fail, jsonBody, parseWith, publicBase } from '../http.js';
import { NO_DOCUMENTS } from '../knowledge/retrieval.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { jsonStore } from '../store.js';
import { assistantSchema } from './assistants.js';

const objectSchema = z.record(z.string(), z.unknown());

/** assistantOverrides.variableValues is free-form, so it is bounded: keys, and size as JSON. */
export const VARIABLE_VALUES_LIMITS = { maxKeys: 64, maxBytes: 16 * 1024 } as const;

export const overridesSchema = objectSchema.superRefine((overrides, ctx) => {
  const values = overrides.variableValues;
  if (values === undefined) return;
  const path = ['variableValues'];
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return ctx.addIssue({ code: 'custom', path, message: 'variableValues must be an object' });
  const { maxKeys, maxBytes } = VARIABLE_VALUES_LIMITS;
  if (Object.keys(values).length > maxKeys)
    ctx.addIssue({ code: 'custom', path, message: `variableValues may have at most ${maxKeys} keys` });
  else if (Buffer.byteLength(JSON.stringify(values)) > maxBytes)
    ctx.addIssue({
      code: 'custom',
      path,
      message: `variableValues may be at most ${maxBytes} bytes as JSON`,
    });
});

/** CreateWebCallDTO: the provider rejects properties it does not know. */
const webCallSchema = z.strictObject({
  assistantId: z.string().min(1).optional(),
  assistant: assistantSchema.optional(),
  assistantOverrides: overridesSchema.optional(),
  // The document's CreateWebCallDTO: a version name, or null for the current one.
  assistantVersion: z.string().min(1).nullable().optional(),
  squadId: z.string().min(1).optional(),
  squad: objectSchema.optional(),
  squadOverrides: objectSchema.optional(),
  workflowId: z.string().min(1).optional(),
  workflow: objectSchema.optional(),
  workflowOverrides: objectSchema.optional(),
  roomDeleteOnUserLeaveEnabled: z.boolean().optional(),
});

/** Sample rates the local rooms play (the provider's telephony and wide-band rates). */
const SAMPLE_RATES = [8_000, 16_000, 22_050, 24_000, 44_100, 48_000] as const;

const audioFormatSchema = z.strictObject({
  format: z.enum(['pcm_s16le', 'mulaw']),
  container: z.literal('raw').default('raw'),
  sampleRate: z
    .number()
    .int()
    .refine((r) => (SAMPLE_RATES as readonly number[]).includes(r), {
      message: `sampleRate must be one of ${SAMPLE_RATES.join(', ')}`,
    }),
});

/** POST /call: the emulator runs the `vapi.websocket` transport; phone calls need the real provider. */
const callSchema = z.looseObject({
  assistantId: z.string().min(1).optional(),
  assistant: assistantSchema.optional(),
  assistantOverrides: overridesSchema.optional(),
  squadId: z.string().min(1).optional(),
  squad: objectSchema.optional(),
  workflowId: z.string().min(1).optional(),
  workflow: objectSchema.optional(),
  name: z.string().max(40).optional(),
  metadata: objectSchema.optional(),
  phoneNumberId: z.string().optional(),
  phoneNumber: objectSchema.optional(),
  customer: objectSchema.optional(),
  customerId: z.string().optional(),
  transport: z
    .looseObject({
      provider: z.string().min(1),
      audioFormat: audioFormatSchema.optional(),
    })
    .optional(),
});

const listSchema = z.strictObject({
  limit: z.coerce.number().int().min(0).max(1000).default(100),
  assistantId: z.string().optional(),
  id: z.string().optional(),
});

interface CallRow {
  id: string;
  status: string;
  ended_reason: string | null;
  data: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

export type CallStatus = 'queued' | 'in-progress' | 'ended';

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
  /** The call's assistant's answer to a question typed during the call, from its documents. */
  answer(callId: string, question: string): Promise<string>;
}

/** Replaces {{name}} with assistantOverrides.variableValues.name, as the provider does. */
export function fillVariables(text: unknown, values: Record<string, unknown> | undefined): unknown {
  if (typeof text !== 'string' || !values) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

export function callRoutes(ctx: EmulatorContext): Hono {
  const assistants = jsonStore(ctx, 'emulator_assistants', 'Assistant');
  const app = new Hono();

  const toCall = (row: CallRow) => {
    const { artifactPlan: _only, webCallUrl: _post, ...data } = json<Record<string, unknown>>(row.data);
    return {
      ...data,
      id: row.id,
      status: row.status,
      ...(row.ended_reason ? { endedReason: row.ended_reason } : {}),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  };

  /** The assistant a call runs: stored (by id) or inline, with overrides and {{variables}} applied. */
  const resolveAssistant = async (body: {
    assistantId?: string | undefined;
    assistant?: Record<string, unknown> | undefined;
    assistantOverrides?: Record<string, unknown> | undefined;
    squadId?: string | undefined;
    squad?: unknown;
    workflowId?: string | undefined;
    workflow?: unknown;
  }): Promise<Record<string, unknown>> => {
    if (
      !body.assistantId &&
      !body.assistant &&
      !body.squadId &&
      !body.squad &&
      !body.workflowId &&
      !body.workflow
    )
      fail(400, 'Assistant or Squad or Workflow must be provided.');
    if (!body.assistantId && !body.assistant)
      fail(501, 'The embedded provider runs assistants only: squads and workflows need the real provider.');
    let assistant: Record<string, unknown>;
    if (body.assistantId) {
      const stored = await assistants.find(body.assistantId);
      if (!stored) fail(400, `Couldn't Get Assistant. \`assistantId\` ${body.assistantId} Does Not Exist.`);
      assistant = assistants.dataOf(stored);
    } else assistant = body.assistant as Record<string, unknown>;
    const { variableValues, ...fieldOverrides } = (body.assistantOverrides ?? {}) as {
      variableValues?: Record<string, unknown>;
    };
    const resolved: Record<string, unknown> = { ...assistant, ...fieldOverrides };
    resolved.firstMessage = fillVariables(resolved.firstMessage, variableValues);
    return resolved;
  };

  const insertCall = async (id: string, assistantId: string | undefined, call: Record<string, unknown>) => {
    const { rows } = await ctx.db.query<CallRow>(
      `insert into emulator_calls (id, org_id, assistant_id, status, data, created_at, updated_at)
       values ($1, $2, $3, 'queued', $4::jsonb, $5, $5) returning *`,
      [id, EMULATOR_ORG_ID, assistantId ?? null, JSON.stringify(call), ctx.now()],
    );
    return rows[0]!;
  };

  /** ws(s)://<host as the caller sees it><mount>/rooms/<id>: the local room of a call. */
  const roomUrl = (c: Parameters<typeof publicBase>[0], suffix: string, id: string) => {
    const { origin, secure, prefix } = publicBase(c, suffix, ctx.forwardedHeaderSecret);
    return `${secure ? 'wss' : 'ws'}://${origin.replace(/^https?:\/\//, '')}${prefix}/rooms/${id}`;
  };

  app.post('/call/web', async (c) => {
    const input = await jsonBody(c);
    checkBody('POST /call/web', input);
    const body = parseWith(webCallSchema, input);
    const resolved = await resolveAssistant(body);
    // The public key is public: what bounds one caller is their address.
    const retryAfter = ctx.takeWebCall(c);
    if (retryAfter !== null)
      return c.json(
        {
          error: 'rate_limited',
          message: `Too many calls from this address; try again in ${retryAfter} s.`,
          statusCode: 429,
        },
        429,
        { 'Retry-After': String(retryAfter) },
      );
    const id = ctx.newId();
    const webCallUrl = roomUrl(c, '/call/web', id);
    const artifactPlan = (resolved.artifactPlan as Record<string, unknown> | undefined) ?? {};
    const call = {
      orgId: EMULATOR_ORG_ID,
      type: 'webCall',
      ...(body.assistantId ? { assistantId: body.assistantId } : {}),
      ...(body.assistantOverrides ? { assistantOverrides: body.assistantOverrides } : {}),
      assistant: resolved,
      webCallUrl,
      transport: { provider: 'vapi.websocket', callUrl: webCallUrl, websocketCallUrl: webCallUrl },
      artifactPlan: { ...artifactPlan, videoRecordingEnabled: artifactPlan.videoRecordingEnabled === true },
    };
    const row = await insertCall(id, body.assistantId, call);
    // webCallUrl and artifactPlan are only returned here, as the provider does.
    return c.json({ ...toCall(row), webCallUrl, artifactPlan: call.artifactPlan }, 201);
  });

  app.post('/call', async (c) => {
    const input = await jsonBody(c);
    checkBody('POST /call', input);
    const body = parseWith(callSchema, input);
    const phone = body.phoneNumberId || body.phoneNumber || body.customer || body.customerId;
    const websocket = body.transport?.provider === 'vapi.websocket';
    if (phone && websocket)
      fail(400, 'transport vapi.websocket cannot be combined with a phone number or customer.');
    if (phone) fail(501, 'The embedded provider does not place phone calls: they need the real provider.');
    if (!websocket)
      fail(
        400,
        "Provide transport: { provider: 'vapi.websocket', audioFormat } (phone calls need the real provider).",
      );
    const resolved = await resolveAssistant(body);
    const id = ctx.newId();
    const websocketCallUrl = roomUrl(c, '/call', id);
    const audioFormat = body.transport?.audioFormat ?? {
      format: 'pcm_s16le',
      container: 'raw',
      sampleRate: 16_000,
    };
    const { phoneNumberId: _p, phoneNumber: _n, customer: _c, customerId: _i, transport: _t, ...rest } = body;
    const call = {
      ...rest,
      orgId: EMULATOR_ORG_ID,
      type: 'vapi.websocketCall',
      assistant: resolved,
      transport: { provider: 'vapi.websocket', websocketCallUrl, audioFormat },
    };
    const row = await insertCall(id, body.assistantId, call);
    return c.json(toCall(row), 201);
  });

  app.get('/call', async (c) => {
    checkQuery('GET /call', c.req.query());
    const q = parseWith(listSchema, c.req.query());
    const params: unknown[] = [];
    const where: string[] = [];
    if (q.assistantId) where.push(`assistant_id = $${params.push(q.assistantId)}`);
    if (q.id) where.push(`id = $${params.push(q.id)}`);
    params.push(q.limit);
    const { rows } = await ctx.db.query<CallRow>(
      `select * from emulator_calls ${where.length ? `where ${where.join(' and ')}` : ''}
       order by created_at desc, id limit $${params.length}`,
      params,
    );
    return c.json(rows.map(toCall));
  });

  app.get('/call/:id', async (c) => {
    const { rows } = await ctx.db.query<CallRow>('select * from emulator_calls where id = $1', [
      c.req.param('id'),
    ]);
    return c.json(toCall(rows[0] ?? fail(404, `Call ${c.req.param('id')} not found`)));
  });

  return app;
}

export function callDirectory(
  ctx: EmulatorContext,
  logger?: { warn(msg: string, fields?: Record<string, unknown>): void },
): EmulatorCallDirectory {
  return {
    async resolveCall(callId) {
      const { rows } = await ctx.db.query<CallRow>('select * from emulator_calls where id = $1', [callId]);
      const row = rows[0];
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
      const { rows } = await ctx.db.query<CallRow>('select * from emulator_calls where id = $1', [callId]);
      const assistant = rows[0] && json<{ assistant?: Record<string, unknown> }>(rows[0].data).assistant;
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
