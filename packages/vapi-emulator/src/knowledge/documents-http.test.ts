import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDocumentWorker,
  createVapiEmulator,
  DONT_KNOW,
  emulatorMigrations,
  type VapiEmulatorDeps,
} from '@engage/vapi-emulator';
import {
  bombDocx,
  fileReports,
  minimalDocx,
  sharedStreamPdf,
  STUCK_WORKER_SCRIPT,
} from '@engage/vapi-emulator/testing';

// Documents are read when uploaded, in the extraction worker, never on a question's path: a decompression bomb fails with its reason at upload, questions are answered while a
// file is still being read, and a file left processing by a stopped server is read at the next start.

const keys = { publicKey: 'pk-docs', privateKey: 'sk-docs' };
const MIB = 1024 * 1024;

for (const target of testDbTargets()) {
  describe(`documents read when uploaded (${target.name})`, () => {
    let db: Db;
    const servers: ServerType[] = [];
    const reports = fileReports();
    const warnings: Record<string, unknown>[] = [];

    const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
      const emulator = createVapiEmulator({
        db,
        keys,
        processingDelayMs: 0,
        onFileProcessed: reports.onFileProcessed,
        logger: { warn: (_msg, fields = {}) => warnings.push(fields), error: () => undefined },
        ...deps,
      });
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const call = async <T>(url: string, method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as T;
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json;
    };
    const upload = async (url: string, name: string, content: string | Uint8Array) => {
      const form = new FormData();
      form.set('file', new File([typeof content === 'string' ? content : new Uint8Array(content)], name));
      const res = await fetch(`${url}/file`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.privateKey}` },
        body: form,
      });
      const file = (await res.json()) as { id: string; status: string };
      expect(res.status).toBe(201);
      expect(file.status).toBe('processing');
      return file.id;
    };
    const status = async (url: string, id: string) =>
      (await call<{ status: string }>(url, 'GET', `/file/${id}`)).status;
    /** An assistant answering from the files, asked with the private key's POST /chat. */
    const ask = async (url: string, fileIds: string[], input: string) => {
      const tool = await call<{ id: string }>(url, 'POST', '/tool', {
        type: 'query',
        knowledgeBases: [{ provider: 'google', name: 'docs', description: 'Documents', fileIds }],
      });
      const assistant = await call<{ id: string }>(url, 'POST', '/assistant', {
        model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id] },
      });
      const chat = await call<{ output: { content: string }[] }>(url, 'POST', '/chat', {
        assistantId: assistant.id,
        input,
      });
      return chat.output[0]?.content;
    };

    let url: string;
    beforeAll(async () => {
      db = await target.open(emulatorMigrations);
      url = await start();
    });

    afterAll(async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      await db.close();
    });

    it('fails a .docx bomb at upload with its reason; questions go on from the other files', async () => {
      const bomb = await upload(url, 'bomb.docx', bombDocx(40 * MIB));
      const lunch = await upload(url, 'lunch.docx', minimalDocx(['Lunch is served at noon in the canteen.']));
      const reason = 'word/document.xml inflates past 16 MiB';
      expect(await reports.settled(bomb)).toEqual({ id: bomb, status: 'failed', reason });
      expect(await reports.settled(lunch)).toMatchObject({ status: 'done' });
      expect(await status(url, bomb)).toBe('failed');
      expect(warnings).toContainEqual({ fileId: bomb, reason });
      expect(await ask(url, [bomb, lunch], 'When is lunch served?')).toBe(
        '"Lunch is served at noon in the canteen."',
      );
    });

    it('fails a PDF whose pages share one giant stream, with its reason', async () => {
      const pdf = await upload(url, 'shared.pdf', sharedStreamPdf(5, 20 * MIB));
      expect(await reports.settled(pdf)).toEqual({
        id: pdf,
        status: 'failed',
        reason: 'a stream (FlateDecode) inflates past 16 MiB',
      });
      expect(await ask(url, [pdf], 'What is on page one?')).toBe(DONT_KNOW);
    });

    it('answers from past the first 400 characters of a text file (the passage length is not the text read)', async () => {
      const filler = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} is about nothing at all.`).join(
        '\n\n',
      );
      const id = await upload(url, 'handbook.txt', `${filler}\n\nThe fire assembly point is the car park.`);
      await reports.settled(id);
      expect(await ask(url, [id], 'Where is the fire assembly point?')).toBe(
        '"The fire assembly point is the car park."',
      );
    });

    it('answers questions while a file is still being read, and reads it again after a restart', async () => {
      // A worker that never finishes: the file stays processing as long as it runs.
      const stuck = createDocumentWorker({ script: STUCK_WORKER_SCRIPT });
      const busy = await start({ documentWorker: stuck });
      const id = await upload(busy, 'rules.txt', 'Dogs are welcome on a lead.');
      expect(await ask(busy, [id], 'Are dogs welcome?')).toBe(DONT_KNOW);
      expect(await status(busy, id)).toBe('processing');
      await stuck.close();

      // The next start takes the file up again, from its first request on.
      const restarted = await start();
      await status(restarted, id);
      expect(await reports.settled(id)).toEqual({ id, status: 'done' });
      expect(await ask(restarted, [id], 'Are dogs welcome?')).toBe('"Dogs are welcome on a lead."');
    });
  });
}
