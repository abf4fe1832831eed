/**
 * The provider's /token routes (private key only, as keyAuth lets nothing else through): keys the
 * owner makes, each private or public, a public one bounded by its restrictions (tokens/scope.ts).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, type RouteKey } from '../contract.js';
import { fail, jsonBody, parseWith } from '../http.js';
import { tokenStore } from '../tokens/store.js';

/** What one token may list: bounded, so a key's check stays cheap. */
export const TOKEN_LIMITS = { maxListed: 100, maxIdChars: 128, maxOriginChars: 300 } as const;

const restrictionsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  allowedOrigins: z
    .array(
      z
        .string()
        .max(TOKEN_LIMITS.maxOriginChars)
        .regex(/^https?:\/\/[^/\s]+$/, 'allowedOrigins holds origins: scheme://host[:port], no path'),
    )
    .max(TOKEN_LIMITS.maxListed)
    .optional(),
  allowedAssistantIds: z
    .array(z.string().min(1).max(TOKEN_LIMITS.maxIdChars))
    .max(TOKEN_LIMITS.maxListed)
    .optional(),
  allowTransientAssistant: z.boolean().optional(),
});

const tokenSchema = z.strictObject({
  tag: z.enum(['private', 'public']).optional(),
  name: z.string().max(40).optional(),
  restrictions: restrictionsSchema.optional(),
});

const listSchema = z.strictObject({ limit: z.coerce.number().int().min(0).max(1000).default(100) });

export function tokenRoutes(ctx: EmulatorContext): Hono {
  const tokens = tokenStore(ctx);
  const app = new Hono();
  const body = async (c: Parameters<typeof jsonBody>[0], route: RouteKey) => {
    const input = await jsonBody(c);
    checkBody(route, input);
    return parseWith(tokenSchema, input);
  };
  const found = <T>(token: T | null, id: string): T => token ?? fail(404, `Token ${id} not found`);

  app.post('/token', async (c) => c.json(await tokens.create(await body(c, 'POST /token')), 201));
  app.get('/token', async (c) => c.json(await tokens.list(parseWith(listSchema, c.req.query()).limit)));
  app.get('/token/:id', async (c) => c.json(found(await tokens.find(c.req.param('id')), c.req.param('id'))));
  app.patch('/token/:id', async (c) => {
    const changes = await body(c, 'PATCH /token/{id}');
    return c.json(found(await tokens.update(c.req.param('id'), changes), c.req.param('id')));
  });
  app.delete('/token/:id', async (c) =>
    c.json(found(await tokens.remove(c.req.param('id')), c.req.param('id'))),
  );
  return app;
}
