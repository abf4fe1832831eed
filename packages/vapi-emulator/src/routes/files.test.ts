import { testDbTargets } from '@engage/db/testing';
import { createVapiClient, dataOf, fileUpload, type VapiClient } from '@engage/vapi-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '@engage/vapi-emulator/testing';
import { apiError, DELAY, file, keys, PROXY_SECRET, useHttpEmulator } from './routes-harness.js';

for (const target of testDbTargets()) {
  describe(`the client against the emulator over HTTP: files (${target.name})`, () => {
    const h = useHttpEmulator(target);
    const { clock, reports } = h;
    let baseUrl: string;
    let vapi: VapiClient;
    beforeAll(() => void ({ baseUrl, vapi } = h));

    describe('files', () => {
      it('uploads a file: processing at first, done once the processing delay has passed', async () => {
        const created = await dataOf(
          vapi.POST('/file', fileUpload(file('# FAQ\n\nHello.', 'faq.md', 'text/markdown'))),
        );
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
        expect((await dataOf(vapi.GET('/file/{id}', { params: { path: { id: created.id } } }))).status).toBe(
          'processing',
        );
        clock.advance(1);
        expect((await dataOf(vapi.GET('/file/{id}', { params: { path: { id: created.id } } }))).status).toBe(
          'done',
        );

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
        const created = await dataOf(vapi.POST('/file', fileUpload(upload)));
        expect(created.status).toBe('processing');
        expect(await reports.settled(created.id)).toMatchObject({ status: 'failed' });
        clock.advance(DELAY);
        expect((await dataOf(vapi.GET('/file/{id}', { params: { path: { id: created.id } } }))).status).toBe(
          'failed',
        );
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
        const pdf = await dataOf(vapi.POST('/file', fileUpload(file(minimalPdf(['Hello.']), 'doc.pdf'))));
        const json = await dataOf(vapi.POST('/file', fileUpload(file('{"ok":true}', 'data.json'))));
        expect(pdf.mimetype).toBe('application/pdf');
        await Promise.all([reports.settled(pdf.id), reports.settled(json.id)]);
        clock.advance(DELAY);
        expect((await dataOf(vapi.GET('/file/{id}', { params: { path: { id: pdf.id } } }))).status).toBe(
          'done',
        );
        expect((await dataOf(vapi.GET('/file/{id}', { params: { path: { id: json.id } } }))).status).toBe(
          'done',
        );
      });

      it('keeps purpose and metadata, lists files of one purpose newest first, renames and deletes', async () => {
        const a = await dataOf(
          vapi.POST(
            '/file',
            fileUpload(file('a', 'a.txt'), {
              purpose: 'knowledge-base-v2',
              metadata: { n: 1 },
            }),
          ),
        );
        clock.advance(1);
        const newer = await dataOf(
          vapi.POST('/file', fileUpload(file('n', 'n.txt'), { purpose: 'knowledge-base-v2' })),
        );
        const b = await dataOf(vapi.POST('/file', fileUpload(file('b', 'b.txt'), { purpose: 'assistant' })));
        expect(a).toMatchObject({ purpose: 'knowledge-base-v2', metadata: { n: 1 } });

        const list = (
          await dataOf(vapi.GET('/file', { params: { query: { purpose: 'knowledge-base-v2' } } }))
        ).map((f) => f.id);
        expect(list.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
        expect(list.indexOf(newer.id)).toBeLessThan(list.indexOf(a.id));
        expect(list).not.toContain(b.id);
        expect(
          (await dataOf(vapi.GET('/file', { params: { query: { purpose: 'assistant' } } }))).map((f) => f.id),
        ).toContain(b.id);

        const renamed = await dataOf(
          vapi.PATCH('/file/{id}', { params: { path: { id: b.id } }, body: { name: 'renamed.txt' } }),
        );
        expect(renamed).toMatchObject({ name: 'renamed.txt', originalName: 'b.txt' });
        expect((await dataOf(vapi.DELETE('/file/{id}', { params: { path: { id: b.id } } }))).id).toBe(b.id);
        expect(
          (await apiError(dataOf(vapi.GET('/file/{id}', { params: { path: { id: b.id } } })))).status,
        ).toBe(404);
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

        const exe = await apiError(dataOf(vapi.POST('/file', fileUpload(file('MZ', 'tool.exe')))));
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
        const error = await apiError(
          dataOf(vapi.POST('/file', fileUpload(file('x'.repeat(64 * 1024 + 1), 'big.txt')))),
        );
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
          const error = await apiError(
            dataOf(client.GET('/file', { params: { query: { purpose: 'assistant' } } })),
          );
          expect(error.status).toBe(401);
          expect(error.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
        }
        const withPublic = await apiError(
          dataOf(
            createVapiClient({ baseUrl, token: keys.publicKey }).GET('/file', {
              params: { query: { purpose: 'assistant' } },
            }),
          ),
        );
        expect(withPublic.message).toContain('Invalid Key');
      });
    });
  });
}
