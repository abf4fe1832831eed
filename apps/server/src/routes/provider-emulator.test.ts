import type { AddressInfo } from 'node:net';
import type { VapiApiError } from '@engage/vapi-client';
import {
  createVapiClient,
  isVapiApiError,
  VAPI_ROUTES,
  type QueryTool,
  type VapiClient,
  type VapiFile,
} from '@engage/vapi-client';
import {
  createVapiEmulator,
  emulatorMigrations,
  NOT_IMPLEMENTED,
  SEEDED_ASSISTANT_IDS,
  type EmulatorCallDirectory,
  type EmulatorFaults,
} from '@engage/vapi-emulator';
import { fileReports, minimalPdf } from '@engage/vapi-emulator/testing';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';

const keys = { publicKey: 'pk-test-public', privateKey: 'sk-test-private' };
/** What the server's own proxy sends in x-engage-proxy. */
const PROXY_SECRET = 'proxy-secret-for-tests';
const DELAY = 1500;

/** A clock the tests move by hand: file status depends on it, so nothing sleeps. */
function manualClock(start = Date.parse('2026-11-21T10:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

const file = (content: string | Uint8Array, name: string, type = '') =>
  new File([typeof content === 'string' ? content : new Uint8Array(content)], name, { type });

const apiError = async (promise: Promise<unknown>): Promise<VapiApiError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isVapiApiError(error)) throw new Error(`expected a VapiApiError, got ${String(error)}`);
  return error;
};

for (const target of testDbTargets()) {
  describe(`the client against the emulator over HTTP (${target.name})`, () => {
    let db: Db;
    let server: ServerType;
    let baseUrl: string;
    let vapi: VapiClient;
    const clock = manualClock();
    const faults: EmulatorFaults = {};
    /** Uploads are read by the emulator's extraction worker: a test awaits a file's report. */
    const reports = fileReports();

    beforeAll(async () => {
      db = await target.open(emulatorMigrations);
      const emulator = createVapiEmulator({
        db,
        keys,
        now: clock.now,
        processingDelayMs: DELAY,
        maxFileBytes: 64 * 1024,
        faults,
        forwardedHeaderSecret: PROXY_SECRET,
        onFileProcessed: reports.onFileProcessed,
      });
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      vapi = createVapiClient({ baseUrl, token: keys.privateKey });
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    });

    beforeEach(() => {
      delete faults.rateLimit;
      delete faults.errorRate;
    });

    describe('files', () => {
      it('uploads a file: processing at first, done once the processing delay has passed', async () => {
        const created = await vapi.file.upload(file('# FAQ\n\nHello.', 'faq.md', 'text/markdown'));
        expect(created).toMatchObject({
          name: 'faq.md',
          bytes: 13,
          mimetype: 'text/markdown',
          status: 'processing',
          object: 'file',
        });
        expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(Date.parse(created.createdAt)).toBe(clock.now().getTime());

        expect(await reports.settled(created.id)).toEqual({ id: created.id, status: 'done' });
        clock.advance(DELAY - 1);
        expect((await vapi.file.get(created.id)).status).toBe('processing');
        clock.advance(1);
        expect((await vapi.file.get(created.id)).status).toBe('done');

        // The url serves the stored bytes back.
        const res = await fetch(created.url!);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('# FAQ\n\nHello.');
        expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      });

      it.each([
        ['an empty file', file('', 'empty.txt')],
        ['invalid JSON in a .json', file('{"a":', 'broken.json')],
        ['a .pdf without a %PDF header', file('just text', 'fake.pdf')],
        ['binary in a text file', file(new Uint8Array([0xff, 0xfe, 0x00, 0x01]), 'blob.csv')],
        ['a .pdf that does not parse', file('%PDF-1.7\n...', 'doc.pdf')],
      ])('marks %s failed after processing', async (_label, upload) => {
        const created = await vapi.file.upload(upload);
        expect(created.status).toBe('processing');
        expect(await reports.settled(created.id)).toMatchObject({ status: 'failed' });
        clock.advance(DELAY);
        expect((await vapi.file.get(created.id)).status).toBe('failed');
      });

      it("uses X-Forwarded-Host in the file URL only from the server's proxy (x-engage-proxy)", async () => {
        const upload = async (headers: Record<string, string>) => {
          const form = new FormData();
          form.set('file', file('hello', 'hello.txt', 'text/plain'));
          const res = await fetch(`${baseUrl}/file`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${keys.privateKey}`, ...headers },
            body: form,
          });
          expect(res.status).toBe(201);
          const created = (await res.json()) as { id: string; url: string };
          const listed = (await (
            await fetch(`${baseUrl}/file/${created.id}`, {
              headers: { Authorization: `Bearer ${keys.privateKey}`, ...headers },
            })
          ).json()) as { url: string };
          expect(listed.url).toBe(created.url);
          return created;
        };
        const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' };

        const direct = await upload(forwarded);
        expect(direct.url).toBe(`${baseUrl}/storage/${direct.id}/hello.txt`);
        const wrong = await upload({ ...forwarded, 'X-Engage-Proxy': `${PROXY_SECRET}x` });
        expect(wrong.url).toBe(`${baseUrl}/storage/${wrong.id}/hello.txt`);
        const proxied = await upload({ ...forwarded, 'X-Engage-Proxy': PROXY_SECRET });
        expect(proxied.url).toBe(`https://evil.example/storage/${proxied.id}/hello.txt`);
      });

      it('accepts a readable PDF and valid JSON', async () => {
        const pdf = await vapi.file.upload(file(minimalPdf(['Hello.']), 'doc.pdf'));
        const json = await vapi.file.upload(file('{"ok":true}', 'data.json'));
        expect(pdf.mimetype).toBe('application/pdf');
        await Promise.all([reports.settled(pdf.id), reports.settled(json.id)]);
        clock.advance(DELAY);
        expect((await vapi.file.get(pdf.id)).status).toBe('done');
        expect((await vapi.file.get(json.id)).status).toBe('done');
      });

      it('keeps purpose and metadata, lists files of one purpose newest first, renames and deletes', async () => {
        const a = await vapi.file.upload(file('a', 'a.txt'), {
          purpose: 'knowledge-base-v2',
          metadata: { n: 1 },
        });
        clock.advance(1);
        const newer = await vapi.file.upload(file('n', 'n.txt'), { purpose: 'knowledge-base-v2' });
        const b = await vapi.file.upload(file('b', 'b.txt'), { purpose: 'assistant' });
        expect(a).toMatchObject({ purpose: 'knowledge-base-v2', metadata: { n: 1 } });

        const list = (await vapi.file.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id);
        expect(list.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
        expect(list.indexOf(newer.id)).toBeLessThan(list.indexOf(a.id));
        expect(list).not.toContain(b.id);
        expect((await vapi.file.list({ purpose: 'assistant' })).map((f) => f.id)).toContain(b.id);

        const renamed = await vapi.file.update(b.id, { name: 'renamed.txt' });
        expect(renamed).toMatchObject({ name: 'renamed.txt', originalName: 'b.txt' });
        expect((await vapi.file.delete(b.id)).id).toBe(b.id);
        expect((await apiError(vapi.file.get(b.id))).status).toBe(404);
      });

      it('answers 400 without a file field, for an unsupported type and for bad metadata', async () => {
        const form = new FormData();
        form.append('purpose', 'assistant');
        const res = await fetch(`${baseUrl}/file`, {
          method: 'POST',
          body: form,
          headers: { Authorization: `Bearer ${keys.privateKey}` },
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });

        const exe = await apiError(vapi.file.upload(file('MZ', 'tool.exe')));
        expect(exe.status).toBe(400);
        expect(exe.message).toContain('.exe is not supported');

        const form2 = new FormData();
        form2.append('file', file('x', 'x.txt'));
        form2.append('metadata', 'not json');
        const bad = await fetch(`${baseUrl}/file`, {
          method: 'POST',
          body: form2,
          headers: { Authorization: `Bearer ${keys.privateKey}` },
        });
        expect(bad.status).toBe(400);
        expect(JSON.stringify(await bad.json())).toContain('metadata must be a JSON object');
      });

      it('answers 413 for a file over the size limit', async () => {
        const error = await apiError(vapi.file.upload(file('x'.repeat(64 * 1024 + 1), 'big.txt')));
        expect(error.status).toBe(413);
        expect(error.message).toContain('too large');

        // Without a Content-Length (chunked), the limit is counted as the body arrives.
        const chunk = new TextEncoder().encode('x'.repeat(32 * 1024));
        let sent = 0;
        const res = await fetch(`${baseUrl}/file`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${keys.privateKey}`,
            'Content-Type': 'multipart/form-data; boundary=b',
          },
          body: new ReadableStream({
            pull(controller) {
              if (sent++ < 8) controller.enqueue(chunk);
              else controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit);
        expect(res.status).toBe(413);
      });

      it('refuses the public key, a wrong key and no key on /file with 401 in the provider shape', async () => {
        for (const token of [keys.publicKey, 'sk-wrong', undefined]) {
          const client = createVapiClient({ baseUrl, token });
          const error = await apiError(client.file.list({ purpose: 'assistant' }));
          expect(error.status).toBe(401);
          expect(error.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
        }
        const withPublic = await apiError(createVapiClient({ baseUrl, token: keys.publicKey }).file.list());
        expect(withPublic.message).toContain('Invalid Key');
      });
    });

    describe('tools', () => {
      let done: VapiFile;
      beforeAll(async () => {
        done = await vapi.file.upload(file('Knowledge.', 'kb.txt'));
        clock.advance(DELAY);
      });

      it('creates a query tool over existing files and reads it back', async () => {
        const tool = (await vapi.tool.create({
          type: 'query',
          function: { name: 'product-kb' },
          knowledgeBases: [
            { provider: 'google', name: 'product-kb', description: 'Products', fileIds: [done.id] },
          ],
        })) as QueryTool;
        expect(tool).toMatchObject({ type: 'query', function: { name: 'product-kb' } });
        expect(tool.knowledgeBases[0]?.fileIds).toEqual([done.id]);
        expect(await vapi.tool.get(tool.id)).toEqual(tool);
        expect((await vapi.tool.list()).map((t) => t.id)).toContain(tool.id);
      });

      it.each([
        [
          'a provider other than google',
          { provider: 'trieve' },
          'provider must be one of the following values: google',
        ],
        ['no fileIds', { fileIds: [] }, 'fileIds must contain at least 1 element'],
        ['an unknown file id', { fileIds: ['nope'] }, 'file nope does not exist'],
        ['no description', { description: '' }, 'description must not be empty'],
      ])('refuses a query tool with %s (400)', async (_label, change, message) => {
        const error = await apiError(
          vapi.tool.create({
            type: 'query',
            function: { name: 'kb' },
            knowledgeBases: [
              { provider: 'google', name: 'kb', description: 'd', fileIds: [done.id], ...change } as never,
            ],
          }),
        );
        expect(error.status).toBe(400);
        expect(Array.isArray((error.body as { message: unknown }).message)).toBe(true);
        expect(error.message).toContain(message);
      });

      it('accepts POST /tool/ with the trailing slash the import tool of SPEC §7 uses', async () => {
        const res = await fetch(`${baseUrl}/tool/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            type: 'query',
            function: { name: 'slash' },
            knowledgeBases: [{ provider: 'google', name: 'slash', description: 'd', fileIds: [done.id] }],
          }),
        });
        expect(res.status).toBe(201);
      });

      it('updates a tool with PATCH, validating the merged tool and keeping its type', async () => {
        const tool = (await vapi.tool.create({
          type: 'query',
          function: { name: 'patched' },
          knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: [done.id] }],
        })) as QueryTool;
        const updated = (await vapi.tool.update(tool.id, {
          knowledgeBases: [{ provider: 'google', name: 'kb', description: 'Renamed', fileIds: [done.id] }],
        })) as QueryTool;
        expect(updated).toMatchObject({ id: tool.id, type: 'query', function: { name: 'patched' } });
        expect(updated.knowledgeBases[0]?.description).toBe('Renamed');
        expect(await vapi.tool.get(tool.id)).toEqual(updated);
        const unknownFile = await apiError(
          vapi.tool.update(tool.id, {
            knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: ['nope'] }],
          }),
        );
        expect(unknownFile.status).toBe(400);
        expect(unknownFile.message).toContain('file nope does not exist');
        expect((await apiError(vapi.tool.update(tool.id, { type: 'function' }))).status).toBe(400);
        expect(await vapi.tool.get(tool.id)).toEqual(updated);
      });

      it('deletes a tool', async () => {
        const tool = await vapi.tool.create({ type: 'function', function: { name: 'f' } });
        await vapi.tool.delete(tool.id);
        expect((await apiError(vapi.tool.get(tool.id))).status).toBe(404);
      });
    });

    describe('knowledge bases', () => {
      it('creates, lists, reads, updates and deletes a knowledge base', async () => {
        const kb = await vapi.knowledgeBase.create({
          provider: 'custom-knowledge-base',
          name: 'Docs',
          server: { url: 'https://kb.example.com/search' },
        });
        expect(kb).toMatchObject({ id: expect.any(String), provider: 'custom-knowledge-base', name: 'Docs' });
        expect((await vapi.knowledgeBase.list()).map((k) => k.id)).toContain(kb.id);
        expect(await vapi.knowledgeBase.get(kb.id)).toEqual(kb);
        const renamed = await vapi.knowledgeBase.update(kb.id, { name: 'Manuals' });
        expect(renamed).toMatchObject({ id: kb.id, provider: 'custom-knowledge-base', name: 'Manuals' });
        expect(await vapi.knowledgeBase.get(kb.id)).toEqual(renamed);
        await vapi.knowledgeBase.delete(kb.id);
        expect((await apiError(vapi.knowledgeBase.get(kb.id))).status).toBe(404);
      });

      it('refuses an unknown provider and a bad server URL (400), on create and on update', async () => {
        const badProvider = await apiError(vapi.knowledgeBase.create({ provider: 'google', name: 'x' }));
        expect(badProvider.status).toBe(400);
        expect(badProvider.message).toContain('provider must be one of the following values');
        const kb = await vapi.knowledgeBase.create({ provider: 'trieve', name: 'T' });
        expect(
          (await apiError(vapi.knowledgeBase.update(kb.id, { server: { url: 'not a url' } }))).status,
        ).toBe(400);
        expect(await vapi.knowledgeBase.get(kb.id)).toEqual(kb);
      });
    });

    describe('assistants', () => {
      it('seeds the three landing-page assistants with a model and a voice', async () => {
        for (const id of Object.values(SEEDED_ASSISTANT_IDS)) {
          const assistant = await vapi.assistant.get(id);
          expect(assistant.model).toMatchObject({ provider: 'openai', model: 'gpt-4o', toolIds: [] });
          expect(assistant.voice?.provider).toBeTruthy();
        }
        expect((await vapi.assistant.get(SEEDED_ASSISTANT_IDS.index)).name).toBe('CTO/CIO Assistant');
        expect((await vapi.assistant.get(SEEDED_ASSISTANT_IDS.ediscovery)).name).toBe(
          'Sales Engineer Assistant',
        );
        // One name everywhere: the site calls the onboarding page's assistant the same (issue 27).
        expect((await vapi.assistant.get(SEEDED_ASSISTANT_IDS.onboarding)).name).toBe(
          'Project Onboarding Assistant',
        );
      });

      it('attaches a tool the way the import tool does: the whole model with toolIds, other fields kept', async () => {
        const kb = await vapi.file.upload(file('x', 'x.md'));
        const tool = await vapi.tool.create({
          type: 'query',
          function: { name: 'kb' },
          knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: [kb.id] }],
        });
        const created = await vapi.assistant.create({
          name: 'Patch me',
          firstMessage: 'Hi',
          model: {
            provider: 'openai',
            model: 'gpt-4o',
            messages: [{ role: 'system', content: 'Be brief.' }],
          },
          voice: { provider: 'vapi', voiceId: 'Elliot' },
        });
        const current = await vapi.assistant.get(created.id);
        const updated = await vapi.assistant.update(created.id, {
          model: {
            ...current.model!,
            temperature: 0.2,
            toolIds: [...(current.model?.toolIds ?? []), tool.id],
          },
        });
        expect(updated.model).toMatchObject({
          provider: 'openai',
          model: 'gpt-4o',
          temperature: 0.2,
          toolIds: [tool.id],
          messages: [{ role: 'system', content: 'Be brief.' }],
        });
        expect(updated).toMatchObject({ name: 'Patch me', firstMessage: 'Hi', voice: { voiceId: 'Elliot' } });
        expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(updated.createdAt));
        expect((await vapi.assistant.get(created.id)).model?.toolIds).toEqual([tool.id]);

        // A PATCH with a model replaces the model whole, as the provider warns.
        const replaced = await vapi.assistant.update(created.id, {
          model: { provider: 'openai', model: 'gpt-4o-mini' },
        });
        expect(replaced.model).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
      });

      it('refuses toolIds that do not exist and server-owned fields', async () => {
        const a = await apiError(
          vapi.assistant.update(SEEDED_ASSISTANT_IDS.index, {
            model: { provider: 'openai', model: 'gpt-4o', toolIds: ['missing-tool'] },
          }),
        );
        expect(a.status).toBe(400);
        expect(a.message).toContain('tool missing-tool does not exist');
        const b = await apiError(vapi.assistant.create({ id: 'mine', name: 'x' }));
        expect(b.message).toContain('property id should not exist');
      });

      it('replaces with PUT, deletes, and answers 404 afterwards', async () => {
        const a = await vapi.assistant.create({ name: 'Temp', firstMessage: 'Hello' });
        const put = await vapi.assistant.replace(a.id, { name: 'Replaced' });
        expect(put.firstMessage).toBeUndefined();
        expect(put.name).toBe('Replaced');
        await vapi.assistant.delete(a.id);
        expect((await apiError(vapi.assistant.get(a.id))).status).toBe(404);
      });
    });

    describe('web calls', () => {
      it('creates a web call with the public key and answers the fields the voice SDK reads, nothing of the assistant', async () => {
        const browser = createVapiClient({ baseUrl, token: keys.publicKey });
        const call = await browser.call.createWeb({
          assistantId: SEEDED_ASSISTANT_IDS.onboarding,
          assistantOverrides: { variableValues: { name: 'Ada' } },
        });
        const { port } = server.address() as AddressInfo;
        expect(call.webCallUrl).toBe(`ws://127.0.0.1:${port}/rooms/${call.id}`);
        expect(call).toMatchObject({
          type: 'webCall',
          status: 'queued',
          assistantId: SEEDED_ASSISTANT_IDS.onboarding,
          artifactPlan: { videoRecordingEnabled: false },
          transport: { callUrl: call.webCallUrl },
        });
        // The public shape: the stored assistant's prompt, tools and files stay with the owner.
        expect(call).not.toHaveProperty('assistant');
        expect(JSON.stringify(call)).not.toContain('You help new team members');
        const fetched = await vapi.call.get(call.id);
        expect(fetched).toMatchObject({
          id: call.id,
          status: 'queued',
          assistant: { voice: { provider: 'vapi' } },
        });
        expect(fetched.artifactPlan).toBeUndefined();
      });

      it("builds a wss: URL behind the server's TLS proxy (X-Forwarded-Proto and Host)", async () => {
        const res = await fetch(`${baseUrl}/call/web`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${keys.publicKey}`,
            'Content-Type': 'application/json',
            'X-Forwarded-Proto': 'https',
            'X-Forwarded-Host': 'engage.example',
            'X-Engage-Proxy': PROXY_SECRET,
          },
          body: JSON.stringify({
            assistant: { firstMessage: 'Hi', voice: { provider: 'tavus', voiceId: 'r52da2535a' } },
          }),
        });
        expect(res.status).toBe(201);
        const call = (await res.json()) as { id: string; webCallUrl: string };
        expect(call.webCallUrl).toBe(`wss://engage.example/rooms/${call.id}`);
        expect((await vapi.call.get(call.id)).assistant).toMatchObject({ voice: { provider: 'tavus' } });
      });

      it.each([
        ['without the proxy secret', {}],
        ['with a wrong proxy secret', { 'X-Engage-Proxy': 'guess' }],
        ['with an empty proxy secret', { 'X-Engage-Proxy': '' }],
      ])('ignores X-Forwarded-Proto/Host from a caller %s', async (_label, proof) => {
        const res = await fetch(`${baseUrl}/call/web`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${keys.publicKey}`,
            'Content-Type': 'application/json',
            'X-Forwarded-Proto': 'https',
            'X-Forwarded-Host': 'evil.example',
            ...proof,
          },
          body: JSON.stringify({ assistantId: SEEDED_ASSISTANT_IDS.index }),
        });
        expect(res.status).toBe(201);
        const call = (await res.json()) as { id: string; webCallUrl: string };
        const { port } = server.address() as AddressInfo;
        expect(call.webCallUrl).toBe(`ws://127.0.0.1:${port}/rooms/${call.id}`);
      });

      it('ignores a malformed X-Forwarded-Host instead of putting it in the room URL', async () => {
        const res = await fetch(`${baseUrl}/call/web`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${keys.publicKey}`,
            'Content-Type': 'application/json',
            'X-Forwarded-Host': 'evil.example/path?x=',
            'X-Engage-Proxy': PROXY_SECRET,
          },
          body: JSON.stringify({ assistantId: SEEDED_ASSISTANT_IDS.index }),
        });
        const call = (await res.json()) as { id: string; webCallUrl: string };
        const { port } = server.address() as AddressInfo;
        expect(call.webCallUrl).toBe(`ws://127.0.0.1:${port}/rooms/${call.id}`);
      });

      it('validates the body as the provider does', async () => {
        const none = await apiError(vapi.call.createWeb({}));
        expect(none.status).toBe(400);
        expect(none.message).toContain('Assistant or Squad or Workflow must be provided.');
        const unknown = await apiError(vapi.call.createWeb({ assistantId: 'asst_nope' }));
        expect(unknown.status).toBe(400);
        expect(unknown.message).toContain('asst_nope Does Not Exist');
        const extra = await apiError(vapi.call.createWeb({ assistantId: 'x', colour: 'red' } as never));
        expect(extra.message).toContain('property colour should not exist');
      });
    });

    describe('websocket calls (POST /call)', () => {
      it('creates a vapi.websocket call with the private key and the room URL of the transport', async () => {
        const audioFormat = { format: 'mulaw', container: 'raw', sampleRate: 8000 };
        const call = await vapi.call.create<{
          id: string;
          type: string;
          status: string;
          transport: { websocketCallUrl: string; audioFormat: unknown };
        }>({
          assistantId: SEEDED_ASSISTANT_IDS.index,
          transport: { provider: 'vapi.websocket', audioFormat },
        });
        const { port } = server.address() as AddressInfo;
        expect(call).toMatchObject({
          type: 'vapi.websocketCall',
          status: 'queued',
          transport: { websocketCallUrl: `ws://127.0.0.1:${port}/rooms/${call.id}`, audioFormat },
        });
        // The public key may only create web calls.
        const browser = createVapiClient({ baseUrl, token: keys.publicKey });
        expect((await apiError(browser.call.create({ assistantId: 'x' }))).status).toBe(401);
      });

      it('refuses phone calls (501), a phone number with a websocket, and an unsupported sample rate', async () => {
        expect(
          (await apiError(vapi.call.create({ assistantId: SEEDED_ASSISTANT_IDS.index, phoneNumberId: 'p1' })))
            .status,
        ).toBe(501);
        const both = await apiError(
          vapi.call.create({ phoneNumberId: 'p1', transport: { provider: 'vapi.websocket' } }),
        );
        expect(both.status).toBe(400);
        const rate = await apiError(
          vapi.call.create({
            assistantId: SEEDED_ASSISTANT_IDS.index,
            transport: {
              provider: 'vapi.websocket',
              audioFormat: { format: 'pcm_s16le', sampleRate: 12345 },
            },
          }),
        );
        expect(rate.message).toContain('sampleRate must be one of');
      });
    });

    describe('the call directory given to the rooms', () => {
      it('resolves a call to its greeting and audio format, and records status updates', async () => {
        let directory: EmulatorCallDirectory | undefined;
        const app = createVapiEmulator({
          db,
          keys,
          now: clock.now,
          rooms: (calls) => {
            directory = calls;
            return new Hono().get('/:id', (c) => c.text(`room ${c.req.param('id')}`));
          },
        });
        const res = await app.request('/call/web', {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            assistant: { firstMessage: 'Hello {{name}}!' },
            assistantOverrides: { variableValues: { name: 'Ada' } },
          }),
        });
        const { id } = (await res.json()) as { id: string };
        // The rooms sub-app is reachable without a key: the call id is the capability.
        expect(await (await app.request(`/rooms/${id}`)).text()).toBe(`room ${id}`);

        expect(await directory!.resolveCall(id)).toEqual({ firstMessage: 'Hello Ada!' });
        expect(await directory!.resolveCall('no-such-call')).toBeNull();

        // Connections racing for the call on any number of instances: exactly one holds it.
        const claims = await Promise.all(Array.from({ length: 6 }, () => directory!.claimCall(id)));
        expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
        expect(claims.filter((c) => c === 'busy')).toHaveLength(5);
        expect(await directory!.claimCall('no-such-call')).toBe('ended');
        // A claim refused by a room limit is given back, and the call can be joined again.
        directory!.releaseCall(id);
        await expect.poll(async () => (await vapi.call.get(id)).status).toBe('queued');
        expect(await directory!.claimCall(id)).toBe('claimed');

        directory!.onStatus(id, { status: 'in-progress' });
        await expect.poll(async () => (await vapi.call.get(id)).status).toBe('in-progress');
        directory!.onStatus(id, { status: 'ended', endedReason: 'customer-ended-call' });
        await expect.poll(async () => (await vapi.call.get(id)).status).toBe('ended');
        expect((await vapi.call.get(id)).endedReason).toBe('customer-ended-call');
        expect(await directory!.resolveCall(id)).toBeNull();
      });
    });

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
        expect(Array.isArray(await observed.assistant.list())).toBe(true);
        expect(seen).toEqual([429, 429, 200]);
        // Without retries the same burst surfaces as a 429 with its Retry-After.
        faults.rateLimit = { burst: 1, retryAfterSeconds: 3 };
        const error = await apiError(
          createVapiClient({ baseUrl, token: keys.privateKey }).file.list({ purpose: 'assistant' }),
        );
        expect(error).toMatchObject({ status: 429, retryAfterMs: 3000 });
        expect(await retrying.file.list({ purpose: 'assistant' })).toBeInstanceOf(Array);
      });

      it('answers 503 at the configured error rate', async () => {
        faults.errorRate = 1;
        expect((await apiError(vapi.file.list())).status).toBe(503);
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
        const error = await apiError(vapi.requester.request({ method: 'GET', path: '/nothing/here/at/all' }));
        expect(error.status).toBe(404);
        expect(error.body).toMatchObject({ statusCode: 404, message: 'Cannot GET /nothing/here/at/all' });
      });
    });

    it('keeps its data across a restart on the same database', async () => {
      const created = await vapi.assistant.create({ name: 'Durable' });
      const again = createVapiEmulator({ db, keys, now: clock.now });
      const res = await again.request(`/assistant/${created.id}`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(((await res.json()) as { name: string }).name).toBe('Durable');
    });
  });
}
