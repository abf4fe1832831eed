import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { callListSchema, listCalls } from '../calls/list.js';
import { callStore, toCall, toPublicCall } from '../calls/store.js';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery } from '../contract.js';
import { fail, jsonBody, parseWith, publicBase, tooMany } from '../http.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { enforceKeyScope, keyScopeOf } from '../tokens/scope.js';
import {
  fillVariables,
  inlineAssistantSchema,
  objectSchema,
  overridesSchema,
  storedAssistants,
} from './assistant-choice.js';

/** CreateWebCallDTO: the provider rejects properties it does not know. */
const webCallSchema = z.strictObject({
  assistantId: z.string().min(1).optional(),
  assistant: inlineAssistantSchema.optional(),
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
  assistant: inlineAssistantSchema.optional(),
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

/** DeleteCallDTO: `ids` asks for the provider's asynchronous bulk delete, which is not emulated. */
const deleteSchema = z.strictObject({
  ids: z.array(z.string().max(128)).max(1000).optional(),
});

/** DELETE's body: none (or an empty one) is `{}`; anything else must be JSON. */
async function optionalJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    fail(400, 'The body is not valid JSON.');
  }
}

interface CallAssistantChoice {
  assistantId?: string | undefined;
  assistant?: Record<string, unknown> | undefined;
  assistantOverrides?: Record<string, unknown> | undefined;
  squadId?: string | undefined;
  squad?: unknown;
  workflowId?: string | undefined;
  workflow?: unknown;
}

/** The assistant a call runs: stored (by id) or inline, with overrides and {{variables}} applied. */
async function assistantOfCall(
  storedAssistant: ReturnType<typeof storedAssistants>,
  body: CallAssistantChoice,
): Promise<Record<string, unknown>> {
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
  const assistant = body.assistantId
    ? await storedAssistant(body.assistantId)
    : (body.assistant as Record<string, unknown>);
  const { variableValues, ...fieldOverrides } = (body.assistantOverrides ?? {}) as {
    variableValues?: Record<string, unknown>;
  };
  const resolved: Record<string, unknown> = { ...assistant, ...fieldOverrides };
  resolved.firstMessage = fillVariables(resolved.firstMessage, variableValues);
  return resolved;
}

export function callRoutes(ctx: EmulatorContext): Hono {
  const storedAssistant = storedAssistants(ctx);
  const calls = callStore(ctx);
  const app = new Hono();

  const resolveAssistant = (body: CallAssistantChoice) => assistantOfCall(storedAssistant, body);

  /** ws(s)://<host as the caller sees it><mount>/rooms/<id>: the local room of a call. */
  const roomUrl = (c: Parameters<typeof publicBase>[0], suffix: string, id: string) => {
    const { origin, secure, prefix } = publicBase(c, suffix, ctx.forwardedHeaderSecret);
    return `${secure ? 'wss' : 'ws'}://${origin.replace(/^https?:\/\//, '')}${prefix}/rooms/${id}`;
  };

  app.post('/call/web', async (c) => {
    const input = await jsonBody(c);
    checkBody('POST /call/web', input);
    const body = parseWith(webCallSchema, input);
    // A public key's restrictions before anything is looked up, so they reveal nothing.
    if (body.assistantId || body.assistant)
      enforceKeyScope(c, {
        ...(body.assistantId ? { assistantId: body.assistantId } : { transient: true }),
        overrides: body.assistantOverrides,
      });
    const resolved = await resolveAssistant(body);
    // The public key is public: what bounds one caller is their address.
    const retryAfter = await ctx.takeWebCall(c);
    if (retryAfter !== null) return tooMany(c, retryAfter, 'calls');
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
    const row = await calls.insert(id, body.assistantId, call);
    // A public key hears the call, never the assistant it runs (its prompt, tools and files).
    if (keyScopeOf(c).tag === 'public') return c.json(toPublicCall(row), 201);
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
    const row = await calls.insert(id, body.assistantId, call);
    return c.json(toCall(row), 201);
  });

  app.get('/call', async (c) => {
    checkQuery('GET /call', c.req.query());
    const rows = await listCalls(ctx.db, parseWith(callListSchema, c.req.query()));
    return c.json(rows.map(toCall));
  });

  app.get('/call/:id', async (c) => {
    const row = await calls.find(c.req.param('id'));
    return c.json(toCall(row ?? fail(404, `Call ${c.req.param('id')} not found`)));
  });

  // A visitor's privacy request: the call goes with its messages, at once.
  app.delete('/call/:id', async (c) => {
    checkQuery('DELETE /call/{id}', c.req.query());
    if (parseWith(deleteSchema, await optionalJsonBody(c)).ids?.length)
      fail(
        501,
        'The embedded provider deletes one call at a time: leave out ids, and DELETE /call/{id} each.',
      );
    const row = await calls.remove(c.req.param('id'));
    return c.json(toCall(row ?? fail(404, `Call ${c.req.param('id')} not found`)));
  });

  return app;
}
