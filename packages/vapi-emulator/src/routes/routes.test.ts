import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { createVapiClient, dataOf, type VapiClient } from '@engage/vapi-client';
import { VAPI_ROUTES } from '@engage/vapi-contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVapiEmulator, NOT_IMPLEMENTED } from '@engage/vapi-emulator';
import { apiError, forbidden, keys, useHttpEmulator } from './routes-harness.js';

for (const target of testDbTargets()) {
  describe(`the client against the emulator over HTTP: faults, routes and restarts (${target.name})`, () => {
    const h = useHttpEmulator(target);
    const { clock, faults } = h;
    let db: Db;
    let baseUrl: string;
    let vapi: VapiClient;
    beforeAll(() => void ({ db, baseUrl, vapi } = h));

    describe('faults', () => {
      it('retries through a burst of 429s that carry Retry-After', async () => {
        faults.rateLimit = { burst: 2, retryAfterSeconds: 0 };
        const retrying = createVapiClient({
          baseUrl,
          token: keys.privateKey,
          retry: { retries: 2, minDelayMs: 1 },
        });
        const seen: number[] = [];
        const observed = createVapiClient({
          baseUrl,
          token: keys.privateKey,
          retry: { retries: 2, minDelayMs: 1 },
          fetch: async (input, init) => {
            const res = await fetch(input, init);
            seen.push(res.status);
            return res;
          },
        });
        expect(Array.isArray(await dataOf(observed.GET('/assistant')))).toBe(true);
        expect(seen).toEqual([429, 429, 200]);
        // Without retries the same burst surfaces as a 429 with its Retry-After.
        faults.rateLimit = { burst: 1, retryAfterSeconds: 3 };
        const error = await apiError(
          dataOf(
            createVapiClient({ baseUrl, token: keys.privateKey }).GET('/file', {
              params: { query: { purpose: 'assistant' } },
            }),
          ),
        );
        expect(error).toMatchObject({ status: 429, retryAfterMs: 3000 });
        expect(
          await dataOf(retrying.GET('/file', { params: { query: { purpose: 'assistant' } } })),
        ).toBeInstanceOf(Array);
      });

      it('answers 503 at the configured error rate', async () => {
        faults.errorRate = 1;
        expect((await apiError(dataOf(vapi.GET('/file', { params: { query: forbidden({}) } })))).status).toBe(
          503,
        );
      });
    });

    describe('routes', () => {
      it.each(NOT_IMPLEMENTED.map(([m, p]) => [m, p] as const))(
        '%s %s answers 501 naming the route',
        async (method, path) => {
          const concrete = path.replace(/\{provider\}/g, '11labs').replace(/\{(\w+)\}/g, 'x1');
          const res = await fetch(`${baseUrl}${concrete}`, {
            method,
            headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
          expect(res.status).toBe(501);
          expect(((await res.json()) as { message: string }).message).toContain(`${method} ${path}`);
        },
      );

      it('answers every route the client knows: implemented, or 501 — never "no such route"', async () => {
        for (const [method, pattern] of VAPI_ROUTES) {
          const concrete = pattern.replace(/\{provider\}/g, '11labs').replace(/\{(\w+)\}/g, 'x1');
          const res = await fetch(`${baseUrl}${concrete}`, {
            method,
            headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
          const body = (await res.json()) as { message?: unknown };
          const missing = res.status === 404 && String(body.message).startsWith('Cannot ');
          expect(missing, `${method} ${pattern}`).toBe(false);
          expect(res.status < 500 || res.status === 501, `${method} ${pattern} answered ${res.status}`).toBe(
            true,
          );
        }
      });

      it('answers 404 in the provider shape for a path it does not know', async () => {
        const res = await fetch(`${baseUrl}/nothing/here/at/all`, {
          headers: { Authorization: `Bearer ${keys.privateKey}` },
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({
          statusCode: 404,
          message: 'Cannot GET /nothing/here/at/all',
        });
      });
    });

    it('keeps its data across a restart on the same database', async () => {
      const created = await dataOf(vapi.POST('/assistant', { body: { name: 'Durable' } }));
      const again = createVapiEmulator({ db, keys, now: clock.now });
      const res = await again.request(`/assistant/${created.id}`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(((await res.json()) as { name: string }).name).toBe('Durable');
    });
  });
}
