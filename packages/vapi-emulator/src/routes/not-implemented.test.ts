import { PROVIDER_ROUTES } from '@engage/vapi-contract';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTED, NOT_IMPLEMENTED } from '../index.js';
import { registeredRoutes } from './not-implemented.js';

const key = ([method, path]: readonly [string, string]) => `${method} ${path}`;

describe('the route table, read from the registered apps', () => {
  it('lists every route the emulator registers, each one a provider route', () => {
    const provider = new Set(PROVIDER_ROUTES.map(key));
    expect(IMPLEMENTED.filter((r) => !provider.has(key(r)))).toEqual([]);
    expect(IMPLEMENTED.map(key)).toEqual(
      expect.arrayContaining([
        'POST /chat/web',
        'POST /chat',
        'GET /chat/{id}',
        'GET /chat',
        'DELETE /chat/{id}',
        'DELETE /call/{id}',
        'POST /call/web',
        'GET /file/{id}',
      ]),
    );
  });

  it('answers 501 for exactly the provider routes not registered', () => {
    const implemented = new Set(IMPLEMENTED.map(key));
    expect(NOT_IMPLEMENTED.filter((r) => implemented.has(key(r)))).toEqual([]);
    expect(NOT_IMPLEMENTED.map(key)).toContain('PATCH /call/{id}');
    expect(NOT_IMPLEMENTED.map(key)).not.toContain('POST /chat/web');
    expect(IMPLEMENTED.length + NOT_IMPLEMENTED.length + 1).toBe(PROVIDER_ROUTES.length);
  });

  it('reads patterns as the contract writes them, without middleware or trailing-slash aliases', () => {
    const app = new Hono();
    app.use('*', async (_c, next) => next());
    app.get('/tool/:id', (c) => c.text(''));
    app.post('/tool', (c) => c.text(''));
    app.post('/tool/', (c) => c.text(''));
    expect(registeredRoutes(app)).toEqual([
      ['GET', '/tool/{id}'],
      ['POST', '/tool'],
    ]);
  });
});
