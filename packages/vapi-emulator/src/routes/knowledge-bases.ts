import { Hono } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { parseWith } from '../http.js';
import { jsonStore, resourceBody } from '../store.js';

/** /knowledge-base resources: the provider's trieve or custom-knowledge-base entries. */
const knowledgeBaseSchema = z.looseObject({
  provider: z.enum(['trieve', 'custom-knowledge-base'], {
    message: 'provider must be one of the following values: trieve, custom-knowledge-base',
  }),
  name: z.string().trim().min(1).max(80).optional(),
  server: z.looseObject({ url: z.url() }).optional(),
});

export function knowledgeBaseRoutes(ctx: EmulatorContext): Hono {
  const store = jsonStore(ctx, 'emulator_knowledge_bases', 'Knowledge base');
  const app = new Hono();
  const body = resourceBody;

  app.post('/knowledge-base', async (c) =>
    c.json(await store.create(parseWith(knowledgeBaseSchema, await body(c))), 201),
  );
  app.get('/knowledge-base', async (c) => c.json(await store.list(c.req.query())));
  app.get('/knowledge-base/:id', async (c) => c.json(await store.get(c.req.param('id'))));
  app.patch('/knowledge-base/:id', async (c) => {
    const current = await store.get(c.req.param('id'));
    const merged = { ...store.dataOf(current), ...(await body(c)) };
    return c.json(await store.replace(current.id, parseWith(knowledgeBaseSchema, merged)));
  });
  app.delete('/knowledge-base/:id', async (c) => c.json(await store.remove(c.req.param('id'))));
  return app;
}
