import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery } from '../contract.js';
import { fail, parseWith } from '../http.js';
import { jsonStore, resourceBody } from '../store.js';

const GEMINI_MODELS = [
  'gemini-3.5-flash',
  'gemini-3-pro',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash-thinking-exp',
  'gemini-2.0-pro-exp-02-05',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'gemini-2.0-flash-exp',
  'gemini-2.0-flash-realtime-exp',
  'gemini-1.5-flash',
  'gemini-1.5-flash-002',
  'gemini-1.5-pro',
  'gemini-1.5-pro-002',
  'gemini-1.0-pro',
] as const;

const knowledgeBaseSchema = z.strictObject({
  provider: z.literal('google', { message: 'provider must be one of the following values: google' }),
  name: z.string().trim().min(1, 'name must not be empty'),
  description: z.string().trim().min(1, 'description must not be empty'),
  fileIds: z.array(z.string().min(1)).min(1, 'fileIds must contain at least 1 element'),
  model: z.enum(GEMINI_MODELS).optional(),
});

/** The query tool as the docs send it (`function` included; the current spec leaves it out). */
export const queryToolSchema = z.strictObject({
  type: z.literal('query'),
  function: z
    .strictObject({
      name: z
        .string()
        .regex(
          /^[a-zA-Z0-9_-]{1,64}$/,
          'function.name must be a-z, A-Z, 0-9, underscores or dashes, at most 64',
        ),
      description: z.string().optional(),
      parameters: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  knowledgeBases: z.array(knowledgeBaseSchema).min(1, 'knowledgeBases must contain at least 1 element'),
  messages: z.array(z.looseObject({ type: z.string() })).optional(),
  rejectionPlan: z.record(z.string(), z.unknown()).optional(),
  async: z.boolean().optional(),
  server: z.record(z.string(), z.unknown()).optional(),
});

/** Other tool types are stored as sent; only the type is checked. */
const otherToolSchema = z.looseObject({
  type: z.string().regex(/^[a-zA-Z][a-zA-Z0-9._-]*$/, 'type must be a tool type such as function or query'),
});

export function toolRoutes(ctx: EmulatorContext): Hono {
  const store = jsonStore(ctx, 'emulator_tools', 'Tool');
  const app = new Hono();

  const validate = async (data: Record<string, unknown>) => {
    if (data.type !== 'query') return parseWith(otherToolSchema, data);
    const tool = parseWith(queryToolSchema, data);
    const ids = [...new Set(tool.knowledgeBases.flatMap((kb) => kb.fileIds))];
    const { rows } = await ctx.db.query<{ id: string }>(
      'select id from emulator_files where id = any($1::text[])',
      [ids],
    );
    const known = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length)
      fail(
        400,
        missing.map((id) => `knowledgeBases: file ${id} does not exist`),
      );
    return tool;
  };
  const body = resourceBody;

  const create = async (c: Context) => {
    const input = await body(c);
    checkBody('POST /tool', input);
    return c.json(await store.create(await validate(input)), 201);
  };
  app.post('/tool', create);
  // The import tool posts to /tool/ (trailing slash); the provider accepts both.
  app.post('/tool/', create);
  app.get('/tool', async (c) => {
    checkQuery('GET /tool', c.req.query());
    return c.json(await store.list(c.req.query()));
  });
  app.get('/tool/:id', async (c) => c.json(await store.get(c.req.param('id'))));
  app.patch('/tool/:id', async (c) => {
    const current = await store.get(c.req.param('id'));
    const changes = await body(c);
    if ('type' in changes && changes.type !== current.type) fail(400, 'type cannot be changed');
    const { type: _type, ...update } = changes;
    checkBody('PATCH /tool/{id}', update, current.type);
    return c.json(await store.replace(current.id, await validate({ ...store.dataOf(current), ...changes })));
  });
  app.delete('/tool/:id', async (c) => c.json(await store.remove(c.req.param('id'))));
  return app;
}
