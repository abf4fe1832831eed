import { Hono } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery, type RouteKey } from '../contract.js';
import { fail, jsonBody, parseWith } from '../http.js';
import { jsonStore, rejectServerFields, type Resource } from '../store.js';

const messageSchema = z.looseObject({ role: z.string().min(1), content: z.string() });

export const modelSchema = z.looseObject({
  provider: z.string().min(1, 'model.provider must not be empty'),
  model: z.string().min(1, 'model.model must not be empty'),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().min(50).max(10_000).optional(),
  messages: z.array(messageSchema).optional(),
  toolIds: z.array(z.string().min(1)).optional(),
  tools: z.array(z.looseObject({ type: z.string().min(1) })).optional(),
});

export const voiceSchema = z.looseObject({
  provider: z.string().min(1, 'voice.provider must not be empty'),
  voiceId: z.string().optional(),
});

/** The assistant fields the emulator checks; anything else the provider knows is kept as sent. */
export const assistantSchema = z.looseObject({
  name: z.string().max(40, 'name must be at most 40 characters').optional(),
  firstMessage: z.string().optional(),
  firstMessageMode: z.string().optional(),
  model: modelSchema.optional(),
  voice: voiceSchema.optional(),
  transcriber: z.looseObject({ provider: z.string().min(1) }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export function assistantRoutes(ctx: EmulatorContext): Hono {
  const store = jsonStore(ctx, 'emulator_assistants', 'Assistant');
  const tools = jsonStore(ctx, 'emulator_tools', 'Tool');
  const app = new Hono();

  /** toolIds must name tools that exist, or a call would fail later with no clue why. */
  const checkToolIds = async (data: Record<string, unknown>) => {
    const ids = (data.model as { toolIds?: string[] } | undefined)?.toolIds ?? [];
    const known = await tools.existing(ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length)
      fail(
        400,
        missing.map((id) => `model.toolIds: tool ${id} does not exist`),
      );
  };
  // PUT is not in the document: its body is checked as a create.
  const validBody = async (c: Parameters<typeof jsonBody>[0], route: RouteKey) => {
    const body = await jsonBody(c);
    rejectServerFields(body);
    checkBody(route, body);
    const data = parseWith(assistantSchema, body);
    await checkToolIds(data);
    return data;
  };

  app.post('/assistant', async (c) => c.json(await store.create(await validBody(c, 'POST /assistant')), 201));
  app.get('/assistant', async (c) => {
    checkQuery('GET /assistant', c.req.query());
    return c.json(await store.list(c.req.query()));
  });
  app.get('/assistant/:id', async (c) => c.json(await store.get(c.req.param('id'))));
  // PATCH replaces each top-level field it carries: a `model` sent replaces the whole stored model.
  app.patch('/assistant/:id', async (c) => {
    const current: Resource = await store.get(c.req.param('id'));
    const changes = await validBody(c, 'PATCH /assistant/{id}');
    return c.json(await store.replace(current.id, { ...store.dataOf(current), ...changes }));
  });
  app.put('/assistant/:id', async (c) => {
    const current = await store.get(c.req.param('id'));
    return c.json(await store.replace(current.id, await validBody(c, 'POST /assistant')));
  });
  app.delete('/assistant/:id', async (c) => c.json(await store.remove(c.req.param('id'))));
  app.get('/assistant/:id/version', async (c) => {
    // The emulator keeps no history: the current state is the only version.
    const current = await store.get(c.req.param('id'));
    return c.json([
      { version: 1, assistantId: current.id, createdAt: current.updatedAt, assistant: current },
    ]);
  });
  return app;
}
