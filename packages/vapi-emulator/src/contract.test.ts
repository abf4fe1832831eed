// The emulator against the provider's OpenAPI document: every documented operation answered, the
// file listing's purpose, and bodies checked against the document. The knowledge-base routes and
// the provider's own SDK: packages/vapi-emulator/src/contract-sdk.test.ts.
import { testDbTargets } from '@engage/db/testing';
import { createVapiClient, dataOf, fileUpload } from '@engage/vapi-client';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_ROUTES, SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { apiError, forbidden, keys, text, useContractEmulator } from './contract-harness.js';

for (const target of testDbTargets()) {
  describe(`the emulator and the provider's contract (${target.name})`, () => {
    const h = useContractEmulator(target);

    it('answers every operation of the OpenAPI document: implemented, or 501 — never an unrouted 404', async () => {
      expect(DOCUMENTED_ROUTES).toHaveLength(137);
      const unrouted: string[] = [];
      for (const [method, pattern] of DOCUMENTED_ROUTES) {
        const concrete = pattern.replace(/\{(\w+)\}/g, 'x1');
        const res = await fetch(`${h.baseUrl}${concrete}`, {
          method,
          headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
          body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        const body = (await res.json()) as { message?: unknown };
        if (res.status === 404 && String(body.message).startsWith('Cannot '))
          unrouted.push(`${method} ${pattern}`);
        expect(res.status < 500 || res.status === 501, `${method} ${pattern} answered ${res.status}`).toBe(
          true,
        );
      }
      expect(unrouted).toEqual([]);
    });

    it('answers 501 naming the route for documented routes it does not emulate', async () => {
      const res = await fetch(`${h.baseUrl}/eval/simulation/concurrency`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(res.status).toBe(501);
      expect(((await res.json()) as { message: string }).message).toContain(
        'GET /eval/simulation/concurrency',
      );
    });

    describe('GET /file and purpose', () => {
      it('refuses a listing without purpose (400), as the document requires it', async () => {
        const error = await apiError(dataOf(h.vapi.GET('/file', { params: { query: forbidden({}) } })));
        expect(error.status).toBe(400);
        expect(error.body).toMatchObject({ statusCode: 400, message: ['purpose must be provided'] });
      });

      it('lists the files of one purpose', async () => {
        const kb = await dataOf(
          h.vapi.POST('/file', fileUpload(text('k', 'k.txt'), { purpose: 'knowledge-base-v2' })),
        );
        const other = await dataOf(
          h.vapi.POST('/file', fileUpload(text('a', 'a.txt'), { purpose: 'assistant' })),
        );
        const ids = (
          await dataOf(h.vapi.GET('/file', { params: { query: { purpose: 'knowledge-base-v2' } } }))
        ).map((f) => f.id);
        expect(ids).toContain(kb.id);
        expect(ids).not.toContain(other.id);
      });

      it('with requireFilePurpose off, answers every file without purpose, and still filters with it', async () => {
        const lenient = createVapiClient({ baseUrl: h.lenientUrl, token: keys.privateKey });
        const kb = await dataOf(
          lenient.POST('/file', fileUpload(text('k', 'k2.txt'), { purpose: 'knowledge-base-v2' })),
        );
        const other = await dataOf(lenient.POST('/file', fileUpload(text('a', 'a2.txt'))));
        const all = (await dataOf(lenient.GET('/file', { params: { query: forbidden({}) } }))).map(
          (f) => f.id,
        );
        expect(all).toEqual(expect.arrayContaining([kb.id, other.id]));
        expect(
          (await dataOf(lenient.GET('/file', { params: { query: { purpose: 'knowledge-base-v2' } } }))).map(
            (f) => f.id,
          ),
        ).not.toContain(other.id);
      });

      it('refuses query parameters the document does not list', async () => {
        const error = await apiError(
          dataOf(h.vapi.GET('/file', { params: { query: { purpose: 'assistant', page: 2 } } })),
        );
        expect(error.status).toBe(400);
        expect(error.message).toContain('property page should not exist');
      });
    });

    describe('bodies checked against the document', () => {
      it('PATCH /file/{id}: a name of 1–40 characters', async () => {
        const f = await dataOf(
          h.vapi.POST('/file', fileUpload(text('x', 'x.txt'), { purpose: 'assistant' })),
        );
        const error = await apiError(
          dataOf(
            h.vapi.PATCH('/file/{id}', { params: { path: { id: f.id } }, body: { name: 'n'.repeat(41) } }),
          ),
        );
        expect(error.status).toBe(400);
        expect(error.message).toContain('name must NOT have more than 40 characters');
        expect((await dataOf(h.vapi.GET('/file/{id}', { params: { path: { id: f.id } } }))).name).toBe(
          'x.txt',
        );
        expect(
          (
            await dataOf(
              h.vapi.PATCH('/file/{id}', { params: { path: { id: f.id } }, body: { name: 'n'.repeat(40) } }),
            )
          ).name,
        ).toBe('n'.repeat(40));
        expect(
          (
            await apiError(
              dataOf(h.vapi.PATCH('/file/{id}', { params: { path: { id: f.id } }, body: { name: '' } })),
            )
          ).status,
        ).toBe(400);
      });

      it('PATCH /assistant/{id}: refuses top-level fields the document does not declare, and stores nothing', async () => {
        const before = await dataOf(
          h.vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.index } } }),
        );
        const error = await apiError(
          dataOf(
            h.vapi.PATCH('/assistant/{id}', {
              params: { path: { id: SEEDED_ASSISTANT_IDS.index } },
              body: { name: 'Changed', favouriteColour: 'blue' },
            }),
          ),
        );
        expect(error.status).toBe(400);
        expect(error.message).toContain('property favouriteColour should not exist');
        const after = await dataOf(
          h.vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.index } } }),
        );
        expect(after.name).toBe(before.name);
        expect(after).not.toHaveProperty('favouriteColour');
      });

      it('PATCH /assistant/{id}: checks enums inside (model.provider)', async () => {
        const error = await apiError(
          dataOf(
            h.vapi.PATCH('/assistant/{id}', {
              params: { path: { id: SEEDED_ASSISTANT_IDS.index } },
              body: { model: forbidden({ provider: 'nobody', model: 'x' }) },
            }),
          ),
        );
        expect(error.status).toBe(400);
      });

      it('POST /call/web: assistantVersion may be a string or null, not a number', async () => {
        const web = createVapiClient({ baseUrl: h.baseUrl, token: keys.publicKey });
        const assistantId = SEEDED_ASSISTANT_IDS.index;
        expect(
          (await dataOf(web.POST('/call/web', { body: { assistantId, assistantVersion: 'v1' } }))).webCallUrl,
        ).toBeTruthy();
        expect(
          (await dataOf(web.POST('/call/web', { body: { assistantId, assistantVersion: null } }))).webCallUrl,
        ).toBeTruthy();
        const res = await fetch(`${h.baseUrl}/call/web`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ assistantId, assistantVersion: 3 }),
        });
        expect(res.status).toBe(400);
      });

      it('POST /tool: the docs’ query tool (with function) passes; an unknown type or field does not', async () => {
        const f = await dataOf(
          h.vapi.POST('/file', fileUpload(text('q', 'q.txt'), { purpose: 'assistant' })),
        );
        const kb = { provider: 'google' as const, name: 'kb', description: 'd', fileIds: [f.id] };
        const tool = await dataOf(
          h.vapi.POST('/tool', {
            body: {
              type: 'query',
              function: { name: 'kb-query' },
              knowledgeBases: [kb],
            },
          }),
        );
        expect(tool.id).toBeTruthy();
        expect(
          (await apiError(dataOf(h.vapi.POST('/tool', { body: forbidden({ type: 'telepathy' }) })))).status,
        ).toBe(400);
        const extra = await apiError(
          dataOf(
            h.vapi.POST('/tool', { body: forbidden({ type: 'query', knowledgeBases: [kb], colour: 'red' }) }),
          ),
        );
        expect(extra.message).toContain('property colour should not exist');
      });

      it('GET /assistant: limit within 0–1000', async () => {
        expect(
          (await apiError(dataOf(h.vapi.GET('/assistant', { params: { query: { limit: 5000 } } })))).status,
        ).toBe(400);
        expect(
          Array.isArray(await dataOf(h.vapi.GET('/assistant', { params: { query: { limit: 5 } } }))),
        ).toBe(true);
      });
    });
  });
}
