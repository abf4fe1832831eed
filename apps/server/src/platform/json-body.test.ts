import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonBody, readQuery } from './json-body.js';

const app = new Hono().post('/', async (c) => {
  const body = await readJsonBody(
    c,
    z.object({ name: z.string().min(1, 'Name the thing.'), tags: z.array(z.string()) }),
  );
  return body.ok ? c.json(body.data) : body.response;
});
const post = (body: string) =>
  app.request('/', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('readJsonBody: the one body reader of the API', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    for (const body of ['', '{', 'not json', '{"name": }']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid_json', message: 'The request body must be JSON.' });
    }
  });

  it('answers the wrong shape with 400 validation_failed, the message and the field', async () => {
    const res = await post('{"name": "", "tags": []}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'validation_failed',
      message: 'Name the thing.',
      field: 'name',
    });
    const nested = await post('{"name": "x", "tags": [1]}');
    expect(await nested.json()).toMatchObject({ error: 'validation_failed', field: 'tags.0' });
    const notObject = await post('[]');
    expect(await notObject.json()).toMatchObject({ error: 'validation_failed' });
  });

  it('hands the parsed body on', async () => {
    const res = await post('{"name": "x", "tags": ["a"]}');
    expect(await res.json()).toEqual({ name: 'x', tags: ['a'] });
  });
});

describe('readQuery: the one query-string reader of the API', () => {
  const schema = z.object({
    status: z.enum(['all', 'verified']),
    search: z.string().max(20).optional(),
  });
  const app = new Hono().get('/q', (c) => {
    const parsed = readQuery(c, schema);
    return parsed.ok ? c.json(parsed.data) : parsed.response;
  });
  const get = async (query: string) => {
    const res = await app.request(`/q?${query}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('decodes percent-encoded and plus-encoded values before checking them', async () => {
    expect(await get('status=all&search=a%40b%2Bc+d')).toEqual({
      status: 200,
      body: { status: 'all', search: 'a@b+c d' },
    });
  });

  it('takes the first of repeated keys, so a repeat cannot slip a second value past the check', async () => {
    expect(await get('status=verified&status=evil')).toEqual({ status: 200, body: { status: 'verified' } });
  });

  it('answers a bad or missing value as it answers a bad body: 400 validation_failed with the field', async () => {
    for (const query of ['status=nope', 'search=x', `status=all&search=${'x'.repeat(21)}`]) {
      const { status, body } = await get(query);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'validation_failed', field: expect.any(String) });
    }
  });
});
