// The emulator against the provider's contract: the /v2/knowledge-base routes, and the provider's
// own SDK (@vapi-ai/server-sdk 2.0.1). The document's operations and bodies:
// packages/vapi-emulator/src/contract.test.ts.
import { testDbTargets } from '@engage/db/testing';
import { dataOf, fileUpload } from '@engage/vapi-client';
import { VapiClient as OfficialSdk } from '@vapi-ai/server-sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { apiError, forbidden, DELAY, keys, text, useContractEmulator } from './contract-harness.js';

for (const target of testDbTargets()) {
  describe(`the emulator and the provider's contract: knowledge bases and the SDK (${target.name})`, () => {
    const h = useContractEmulator(target);
    const { clock, reports } = h;

    describe('/v2/knowledge-base', () => {
      it('creates a base with a query tool, indexes attached files (indexing → ready/failed), retries, detaches, deletes', async () => {
        const good = await dataOf(
          h.vapi.POST('/file', fileUpload(text('# FAQ', 'faq.md'), { purpose: 'knowledge-base-v2' })),
        );
        const empty = await dataOf(
          h.vapi.POST('/file', fileUpload(text('', 'empty.txt'), { purpose: 'knowledge-base-v2' })),
        );
        const base = await dataOf(
          h.vapi.POST('/v2/knowledge-base', { body: { name: 'Docs', description: 'Product docs' } }),
        );
        expect(base).toMatchObject({ name: 'Docs', description: 'Product docs' });

        const fresh = await dataOf(
          h.vapi.GET('/v2/knowledge-base/{id}', { params: { path: { id: base.id } } }),
        );
        expect(fresh.files).toEqual([]);
        expect(fresh.toolId).toBeTruthy();
        expect(
          await dataOf(h.vapi.GET('/tool/{id}', { params: { path: { id: fresh.toolId! } } })),
        ).toMatchObject({
          type: 'knowledgeBase',
          knowledgeBaseId: base.id,
        });

        const attached = await dataOf(
          h.vapi.POST('/v2/knowledge-base/{id}/file', {
            params: { path: { id: base.id } },
            body: { fileId: good.id },
          }),
        );
        expect(attached).toMatchObject({ knowledgeBaseV2Id: base.id, fileId: good.id, status: 'indexing' });
        await dataOf(
          h.vapi.POST('/v2/knowledge-base/{id}/file', {
            params: { path: { id: base.id } },
            body: { fileId: empty.id },
          }),
        );
        expect(
          (
            await apiError(
              dataOf(
                h.vapi.POST('/v2/knowledge-base/{id}/file', {
                  params: { path: { id: base.id } },
                  body: { fileId: good.id },
                }),
              ),
            )
          ).status,
        ).toBe(400);
        expect(
          (
            await apiError(
              dataOf(
                h.vapi.POST('/v2/knowledge-base/{id}/file', {
                  params: { path: { id: base.id } },
                  body: { fileId: 'nope' },
                }),
              ),
            )
          ).status,
        ).toBe(404);

        await reports.settled(good.id);
        clock.advance(DELAY);
        const statuses = Object.fromEntries(
          (
            await dataOf(h.vapi.GET('/v2/knowledge-base/{id}/file', { params: { path: { id: base.id } } }))
          ).map((f) => [f.fileId, f.status]),
        );
        expect(statuses).toEqual({ [good.id]: 'ready', [empty.id]: 'failed' });

        const retried = await dataOf(
          h.vapi.POST('/v2/knowledge-base/{id}/file/{fileId}/retry', {
            params: { path: { id: base.id, fileId: empty.id } },
          }),
        );
        expect(retried.status).toBe('indexing');
        clock.advance(DELAY);
        expect(
          (
            await dataOf(h.vapi.GET('/v2/knowledge-base/{id}', { params: { path: { id: base.id } } }))
          ).files.find((f) => f.fileId === empty.id)?.status,
        ).toBe('failed');

        expect(
          (
            await dataOf(
              h.vapi.DELETE('/v2/knowledge-base/{id}/file/{fileId}', {
                params: { path: { id: base.id, fileId: empty.id } },
              }),
            )
          ).fileId,
        ).toBe(empty.id);
        expect(
          (
            await dataOf(h.vapi.GET('/v2/knowledge-base/{id}', { params: { path: { id: base.id } } }))
          ).files.map((f) => f.fileId),
        ).toEqual([good.id]);

        expect(
          (
            await dataOf(
              h.vapi.PATCH('/v2/knowledge-base/{id}', {
                params: { path: { id: base.id } },
                body: { description: null },
              }),
            )
          ).description,
        ).toBeUndefined();
        expect((await dataOf(h.vapi.GET('/v2/knowledge-base'))).map((b) => b.id)).toContain(base.id);

        await dataOf(h.vapi.DELETE('/v2/knowledge-base/{id}', { params: { path: { id: base.id } } }));
        expect(
          (
            await apiError(
              dataOf(h.vapi.GET('/v2/knowledge-base/{id}', { params: { path: { id: base.id } } })),
            )
          ).status,
        ).toBe(404);
        expect(
          (await apiError(dataOf(h.vapi.GET('/tool/{id}', { params: { path: { id: fresh.toolId! } } }))))
            .status,
        ).toBe(404);
      });

      it('checks names (1–80), descriptions (≤ 1000) and unknown fields', async () => {
        for (const body of [
          { name: '' },
          { name: 'n'.repeat(81) },
          { name: 'ok', description: 'd'.repeat(1001) },
        ])
          expect((await apiError(dataOf(h.vapi.POST('/v2/knowledge-base', { body: body })))).status).toBe(
            400,
          );
        const unknown = await apiError(
          dataOf(h.vapi.POST('/v2/knowledge-base', { body: forbidden({ name: 'ok', files: [] }) })),
        );
        expect(unknown.message).toContain('property files should not exist');
        expect(
          (await apiError(dataOf(h.vapi.GET('/v2/knowledge-base', { params: { query: { limit: 2000 } } }))))
            .status,
        ).toBe(400);
      });
    });

    describe('the official @vapi-ai/server-sdk 2.0.1', () => {
      let sdk: OfficialSdk;
      beforeAll(() => {
        sdk = new OfficialSdk({ token: keys.privateKey, baseUrl: h.baseUrl, maxRetries: 0 });
      });

      it('runs its file methods', async () => {
        const created = await sdk.files.create({
          file: new File(['# SDK'], 'sdk.md', { type: 'text/markdown' }),
          purpose: 'knowledge-base-v2',
        });
        expect(created).toMatchObject({ name: 'sdk.md', status: 'processing', purpose: 'knowledge-base-v2' });
        expect((await sdk.files.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id)).toContain(
          created.id,
        );
        await reports.settled(created.id);
        clock.advance(DELAY);
        expect((await sdk.files.get({ id: created.id })).status).toBe('done');
        expect((await sdk.files.update({ id: created.id, name: 'renamed.md' })).name).toBe('renamed.md');
        expect((await sdk.files.delete({ id: created.id })).id).toBe(created.id);
      });

      it('runs its tool and assistant methods', async () => {
        const f = await sdk.files.create({ file: new File(['x'], 'x.txt'), purpose: 'assistant' });
        const tool = await sdk.tools.create({
          type: 'query',
          knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: [f.id] }],
        });
        expect((await sdk.tools.get({ id: tool.id })).id).toBe(tool.id);
        expect((await sdk.tools.list()).map((t) => t.id)).toContain(tool.id);

        const assistant = await sdk.assistants.create({
          name: 'SDK assistant',
          model: { provider: 'openai', model: 'gpt-4o-mini', toolIds: [tool.id] },
        });
        expect(assistant.model).toMatchObject({ toolIds: [tool.id] });
        const updated = await sdk.assistants.update({ id: assistant.id, name: 'Renamed' });
        expect(updated.name).toBe('Renamed');
        expect((await sdk.assistants.get({ id: assistant.id })).name).toBe('Renamed');
        expect((await sdk.assistants.list({ limit: 1000 })).map((a) => a.id)).toContain(assistant.id);
        await sdk.assistants.delete({ id: assistant.id });
        await sdk.tools.delete({ id: tool.id });
        expect(
          (await apiError(dataOf(h.vapi.GET('/tool/{id}', { params: { path: { id: tool.id } } })))).status,
        ).toBe(404);
      });

      it('runs its call methods', async () => {
        const call = await sdk.calls.create({
          assistantId: SEEDED_ASSISTANT_IDS.index,
          transport: { provider: 'vapi.websocket' },
        });
        const id = (call as { id: string }).id;
        expect((await sdk.calls.get({ id })).id).toBe(id);
        expect(
          (await sdk.calls.list({ assistantId: SEEDED_ASSISTANT_IDS.index })).map((c) => c.id),
        ).toContain(id);
      });

      it('runs its v2 knowledge-base methods', async () => {
        const kbs = sdk.knowledgeBasesV2;
        const f = await sdk.files.create({
          file: new File(['notes'], 'notes.txt'),
          purpose: 'knowledge-base-v2',
        });
        const base = await kbs.knowledgeBaseV2ControllerCreate({ name: 'SDK base' });
        const attached = await kbs.knowledgeBaseV2ControllerFileAttach({ id: base.id, fileId: f.id });
        expect(attached.status).toBe('indexing');
        await reports.settled(f.id);
        clock.advance(DELAY);
        const full = await kbs.knowledgeBaseV2ControllerFindOne({ id: base.id });
        expect(full.files.map((x) => x.status)).toEqual(['ready']);
        expect(full.toolId).toBeTruthy();
        expect((await kbs.knowledgeBaseV2ControllerFilesGet({ id: base.id })).map((x) => x.fileId)).toEqual([
          f.id,
        ]);
        expect((await kbs.knowledgeBaseV2ControllerFileRetry({ id: base.id, fileId: f.id })).status).toBe(
          'indexing',
        );
        expect((await kbs.knowledgeBaseV2ControllerFileDetach({ id: base.id, fileId: f.id })).fileId).toBe(
          f.id,
        );
        expect((await kbs.knowledgeBaseV2ControllerUpdate({ id: base.id, name: 'Renamed' })).name).toBe(
          'Renamed',
        );
        expect((await kbs.knowledgeBaseV2ControllerFindAll()).map((b) => b.id)).toContain(base.id);
        expect((await kbs.knowledgeBaseV2ControllerRemove({ id: base.id })).id).toBe(base.id);
      });
    });
  });
}
