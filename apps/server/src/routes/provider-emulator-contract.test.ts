import type { AddressInfo } from 'node:net';
import { createVapiClient, isVapiApiError, type VapiApiError, type VapiClient } from '@engage/vapi-client';
import {
  createVapiEmulator,
  DOCUMENTED_ROUTES,
  emulatorMigrations,
  SEEDED_ASSISTANT_IDS,
} from '@engage/vapi-emulator';
import { fileReports } from '@engage/vapi-emulator/testing';
import { serve, type ServerType } from '@hono/node-server';
import { VapiClient as OfficialSdk } from '@vapi-ai/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';

// The emulator against the provider's OpenAPI document (shared/provider/openapi.json, copied into
// packages/vapi-contract) and against the provider's own SDK (@vapi-ai/server-sdk 2.0.1).

const keys = { publicKey: 'pk-contract', privateKey: 'sk-contract' };
const DELAY = 1000;

function manualClock(start = Date.parse('2026-11-21T10:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

const apiError = async (promise: Promise<unknown>): Promise<VapiApiError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isVapiApiError(error)) throw new Error(`expected a VapiApiError, got ${String(error)}`);
  return error;
};
const text = (content: string, name: string) => new File([content], name, { type: 'text/plain' });

for (const target of testDbTargets()) {
  describe(`the emulator and the provider's contract (${target.name})`, () => {
    let db: Db;
    const servers: ServerType[] = [];
    let baseUrl: string;
    let lenientUrl: string;
    let vapi: VapiClient;
    const clock = manualClock();
    /** Uploads are read by the emulator's extraction worker: a test awaits a file's report. */
    const reports = fileReports();

    const start = async (requireFilePurpose?: boolean) => {
      const emulator = createVapiEmulator({
        db,
        keys,
        now: clock.now,
        processingDelayMs: DELAY,
        onFileProcessed: reports.onFileProcessed,
        ...(requireFilePurpose === undefined ? {} : { requireFilePurpose }),
      });
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    beforeAll(async () => {
      db = await target.open(emulatorMigrations);
      baseUrl = await start();
      lenientUrl = await start(false);
      vapi = createVapiClient({ baseUrl, token: keys.privateKey });
    });

    afterAll(async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      await db.close();
    });

    it('answers every operation of the OpenAPI document: implemented, or 501 — never an unrouted 404', async () => {
      expect(DOCUMENTED_ROUTES).toHaveLength(137);
      const unrouted: string[] = [];
      for (const [method, pattern] of DOCUMENTED_ROUTES) {
        const concrete = pattern.replace(/\{(\w+)\}/g, 'x1');
        const res = await fetch(`${baseUrl}${concrete}`, {
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
      const res = await fetch(`${baseUrl}/eval/simulation/concurrency`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(res.status).toBe(501);
      expect(((await res.json()) as { message: string }).message).toContain(
        'GET /eval/simulation/concurrency',
      );
    });

    describe('GET /file and purpose', () => {
      it('refuses a listing without purpose (400), as the document requires it', async () => {
        const error = await apiError(vapi.file.list());
        expect(error.status).toBe(400);
        expect(error.body).toMatchObject({ statusCode: 400, message: ['purpose must be provided'] });
      });

      it('lists the files of one purpose', async () => {
        const kb = await vapi.file.upload(text('k', 'k.txt'), { purpose: 'knowledge-base-v2' });
        const other = await vapi.file.upload(text('a', 'a.txt'), { purpose: 'assistant' });
        const ids = (await vapi.file.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id);
        expect(ids).toContain(kb.id);
        expect(ids).not.toContain(other.id);
      });

      it('with requireFilePurpose off, answers every file without purpose, and still filters with it', async () => {
        const lenient = createVapiClient({ baseUrl: lenientUrl, token: keys.privateKey });
        const kb = await lenient.file.upload(text('k', 'k2.txt'), { purpose: 'knowledge-base-v2' });
        const other = await lenient.file.upload(text('a', 'a2.txt'));
        const all = (await lenient.file.list()).map((f) => f.id);
        expect(all).toEqual(expect.arrayContaining([kb.id, other.id]));
        expect((await lenient.file.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id)).not.toContain(
          other.id,
        );
      });

      it('refuses query parameters the document does not list', async () => {
        const error = await apiError(vapi.file.list({ purpose: 'assistant', page: 2 }));
        expect(error.status).toBe(400);
        expect(error.message).toContain('property page should not exist');
      });
    });

    describe('bodies checked against the document', () => {
      it('PATCH /file/{id}: a name of 1–40 characters', async () => {
        const f = await vapi.file.upload(text('x', 'x.txt'), { purpose: 'assistant' });
        const error = await apiError(vapi.file.update(f.id, { name: 'n'.repeat(41) }));
        expect(error.status).toBe(400);
        expect(error.message).toContain('name must NOT have more than 40 characters');
        expect((await vapi.file.get(f.id)).name).toBe('x.txt');
        expect((await vapi.file.update(f.id, { name: 'n'.repeat(40) })).name).toBe('n'.repeat(40));
        expect((await apiError(vapi.file.update(f.id, { name: '' }))).status).toBe(400);
      });

      it('PATCH /assistant/{id}: refuses top-level fields the document does not declare, and stores nothing', async () => {
        const before = await vapi.assistant.get(SEEDED_ASSISTANT_IDS.index);
        const error = await apiError(
          vapi.assistant.update(SEEDED_ASSISTANT_IDS.index, { name: 'Changed', favouriteColour: 'blue' }),
        );
        expect(error.status).toBe(400);
        expect(error.message).toContain('property favouriteColour should not exist');
        const after = await vapi.assistant.get(SEEDED_ASSISTANT_IDS.index);
        expect(after.name).toBe(before.name);
        expect(after).not.toHaveProperty('favouriteColour');
      });

      it('PATCH /assistant/{id}: checks enums inside (model.provider)', async () => {
        const error = await apiError(
          vapi.assistant.update(SEEDED_ASSISTANT_IDS.index, { model: { provider: 'nobody', model: 'x' } }),
        );
        expect(error.status).toBe(400);
      });

      it('POST /call/web: assistantVersion may be a string or null, not a number', async () => {
        const web = createVapiClient({ baseUrl, token: keys.publicKey });
        const assistantId = SEEDED_ASSISTANT_IDS.index;
        expect((await web.call.createWeb({ assistantId, assistantVersion: 'v1' })).webCallUrl).toBeTruthy();
        expect((await web.call.createWeb({ assistantId, assistantVersion: null })).webCallUrl).toBeTruthy();
        const res = await fetch(`${baseUrl}/call/web`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ assistantId, assistantVersion: 3 }),
        });
        expect(res.status).toBe(400);
      });

      it('POST /tool: the docs’ query tool (with function) passes; an unknown type or field does not', async () => {
        const f = await vapi.file.upload(text('q', 'q.txt'), { purpose: 'assistant' });
        const kb = { provider: 'google' as const, name: 'kb', description: 'd', fileIds: [f.id] };
        const tool = await vapi.tool.create({
          type: 'query',
          function: { name: 'kb-query' },
          knowledgeBases: [kb],
        });
        expect(tool.id).toBeTruthy();
        expect((await apiError(vapi.tool.create({ type: 'telepathy' }))).status).toBe(400);
        const extra = await apiError(
          vapi.tool.create({ type: 'query', knowledgeBases: [kb], colour: 'red' }),
        );
        expect(extra.message).toContain('property colour should not exist');
      });

      it('GET /assistant: limit within 0–1000', async () => {
        expect((await apiError(vapi.assistant.list({ limit: 5000 }))).status).toBe(400);
        expect(Array.isArray(await vapi.assistant.list({ limit: 5 }))).toBe(true);
      });
    });

    describe('/v2/knowledge-base', () => {
      it('creates a base with a query tool, indexes attached files (indexing → ready/failed), retries, detaches, deletes', async () => {
        const good = await vapi.file.upload(text('# FAQ', 'faq.md'), { purpose: 'knowledge-base-v2' });
        const empty = await vapi.file.upload(text('', 'empty.txt'), { purpose: 'knowledge-base-v2' });
        const base = await vapi.knowledgeBaseV2.create({ name: 'Docs', description: 'Product docs' });
        expect(base).toMatchObject({ name: 'Docs', description: 'Product docs' });

        const fresh = await vapi.knowledgeBaseV2.get(base.id);
        expect(fresh.files).toEqual([]);
        expect(fresh.toolId).toBeTruthy();
        expect(await vapi.tool.get(fresh.toolId!)).toMatchObject({
          type: 'knowledgeBase',
          knowledgeBaseId: base.id,
        });

        const attached = await vapi.knowledgeBaseV2.attachFile(base.id, { fileId: good.id });
        expect(attached).toMatchObject({ knowledgeBaseV2Id: base.id, fileId: good.id, status: 'indexing' });
        await vapi.knowledgeBaseV2.attachFile(base.id, { fileId: empty.id });
        expect((await apiError(vapi.knowledgeBaseV2.attachFile(base.id, { fileId: good.id }))).status).toBe(
          400,
        );
        expect((await apiError(vapi.knowledgeBaseV2.attachFile(base.id, { fileId: 'nope' }))).status).toBe(
          404,
        );

        await reports.settled(good.id);
        clock.advance(DELAY);
        const statuses = Object.fromEntries(
          (await vapi.knowledgeBaseV2.listFiles(base.id)).map((f) => [f.fileId, f.status]),
        );
        expect(statuses).toEqual({ [good.id]: 'ready', [empty.id]: 'failed' });

        const retried = await vapi.knowledgeBaseV2.retryFile(base.id, empty.id);
        expect(retried.status).toBe('indexing');
        clock.advance(DELAY);
        expect(
          (await vapi.knowledgeBaseV2.get(base.id)).files.find((f) => f.fileId === empty.id)?.status,
        ).toBe('failed');

        expect((await vapi.knowledgeBaseV2.detachFile(base.id, empty.id)).fileId).toBe(empty.id);
        expect((await vapi.knowledgeBaseV2.get(base.id)).files.map((f) => f.fileId)).toEqual([good.id]);

        expect(
          (await vapi.knowledgeBaseV2.update(base.id, { description: null })).description,
        ).toBeUndefined();
        expect((await vapi.knowledgeBaseV2.list()).map((b) => b.id)).toContain(base.id);

        await vapi.knowledgeBaseV2.delete(base.id);
        expect((await apiError(vapi.knowledgeBaseV2.get(base.id))).status).toBe(404);
        expect((await apiError(vapi.tool.get(fresh.toolId!))).status).toBe(404);
      });

      it('checks names (1–80), descriptions (≤ 1000) and unknown fields', async () => {
        for (const body of [
          { name: '' },
          { name: 'n'.repeat(81) },
          { name: 'ok', description: 'd'.repeat(1001) },
        ])
          expect((await apiError(vapi.knowledgeBaseV2.create(body))).status).toBe(400);
        const unknown = await apiError(
          vapi.requester.request({
            method: 'POST',
            path: '/v2/knowledge-base',
            body: { name: 'ok', files: [] },
          }),
        );
        expect(unknown.message).toContain('property files should not exist');
        expect((await apiError(vapi.knowledgeBaseV2.list({ limit: 2000 }))).status).toBe(400);
      });
    });

    describe('the official @vapi-ai/server-sdk 2.0.1', () => {
      let sdk: OfficialSdk;
      beforeAll(() => {
        sdk = new OfficialSdk({ token: keys.privateKey, baseUrl, maxRetries: 0 });
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
        expect((await apiError(vapi.tool.get(tool.id))).status).toBe(404);
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
