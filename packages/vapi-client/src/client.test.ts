import { describe, expect, expectTypeOf, it } from 'vitest';
import { createVapiClient, dataOf, fileUpload, type VapiClient } from './client.js';
import { recordingClient } from './testing/recording-client.js';
import type { VapiFile, WebCall } from './types.js';

describe('requests as the provider reads them', () => {
  it('URL-encodes path parameters', async () => {
    const { client, calls } = recordingClient();
    await client.GET('/assistant/{id}', { params: { path: { id: 'a/b?c#d' } } });
    expect(calls[0]?.url.pathname).toBe('/assistant/a%2Fb%3Fc%23d');
  });

  it('serialises query parameters: arrays repeat, undefined dropped', async () => {
    const { client, calls } = recordingClient();
    await client.GET('/call', {
      params: {
        query: { limit: 10, createdAtGt: '2026-01-02T03:04:05.000Z', id: 'a', assistantId: undefined },
      },
    });
    await client.GET('/file', { params: { query: { purpose: 'knowledge-base-v2' } } });
    const params = calls[0]!.url.searchParams;
    expect(params.get('limit')).toBe('10');
    expect(params.get('createdAtGt')).toBe('2026-01-02T03:04:05.000Z');
    expect(params.has('assistantId')).toBe(false);
    expect(calls[1]!.url.search).toBe('?purpose=knowledge-base-v2');
  });

  it('sends JSON bodies with a JSON content type, with the bearer token', async () => {
    const { client, calls } = recordingClient();
    await client.PATCH('/assistant/{id}', { params: { path: { id: 'a1' } }, body: { name: 'New' } });
    expect(calls[0]?.method).toBe('PATCH');
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer sk-test');
    expect(await calls[0]?.body.json()).toEqual({ name: 'New' });
  });

  it('reaches the routes the document lacks: POST /call/web', async () => {
    const { client, calls } = recordingClient();
    await client.POST('/call/web', { body: { assistantId: 'a' } });
    expect(`${calls[0]?.method} ${calls[0]?.url.href}`).toBe('POST https://api.example.test/call/web');
  });

  it('uploads a file as multipart with file, purpose and metadata parts', async () => {
    const { client, calls } = recordingClient();
    const file = new File(['# hi'], 'notes.md', { type: 'text/markdown' });
    await client.POST(
      '/file',
      fileUpload(file, { purpose: 'knowledge-base-v2', metadata: { source: 'import' } }),
    );
    // Sent as FormData: the fetch underneath writes the multipart boundary itself.
    expect(calls[0]?.headers.get('content-type')).toBeNull();
    const form = await calls[0]!.body.formData();
    const part = form.get('file') as File;
    expect(part.name).toBe('notes.md');
    expect(await part.text()).toBe('# hi');
    expect(form.get('purpose')).toBe('knowledge-base-v2');
    expect(JSON.parse(String(form.get('metadata')))).toEqual({ source: 'import' });
  });

  it('still sends the upload when a server library has replaced the global Request', async () => {
    const original = globalThis.Request;
    // @hono/node-server, for one, puts a Request class of its own on globalThis.
    globalThis.Request = class extends original {};
    try {
      const { client, calls } = recordingClient();
      await client.POST('/file', fileUpload(new File(['# hi'], 'notes.md')));
      expect(((await calls[0]!.body.formData()).get('file') as File).name).toBe('notes.md');
    } finally {
      globalThis.Request = original;
    }
  });

  it('names an unnamed blob "file", or as asked', async () => {
    const { client, calls } = recordingClient();
    await client.POST('/file', fileUpload(new Blob(['x'])));
    await client.POST('/file', fileUpload(new Blob(['x']), { name: 'faq.md' }));
    expect(((await calls[0]!.body.formData()).get('file') as File).name).toBe('file');
    expect(((await calls[1]!.body.formData()).get('file') as File).name).toBe('faq.md');
  });

  it('sends no Authorization header without a token, and asks a token function each time', async () => {
    const { client, calls } = recordingClient(null);
    await client.GET('/assistant');
    expect(calls[0]?.headers.get('authorization')).toBeNull();

    let n = 0;
    const seen: (string | null)[] = [];
    const dynamic = createVapiClient({
      token: async () => `t${++n}`,
      fetch: async (_input, init) => {
        seen.push(new Headers(init?.headers).get('authorization'));
        return new Response(null, { status: 204 });
      },
    });
    await dynamic.GET('/assistant');
    await dynamic.GET('/assistant');
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('gives a success that is not JSON as its text, never a SyntaxError', async () => {
    const vapi = createVapiClient({ fetch: async () => new Response('<html>proxy</html>', { status: 200 }) });
    expect(await dataOf(vapi.POST('/chat/web', { body: {} }))).toBe('<html>proxy</html>');
  });

  it('gives the parsed answer through dataOf, and undefined for an empty one', async () => {
    const answers = [Response.json({ id: 'f1', status: 'done' }), new Response(null, { status: 204 })];
    const vapi = createVapiClient({ fetch: async () => answers.shift()! });
    expect(await dataOf(vapi.GET('/file/{id}', { params: { path: { id: 'f1' } } }))).toEqual({
      id: 'f1',
      status: 'done',
    });
    expect(await dataOf(vapi.DELETE('/file/{id}', { params: { path: { id: 'f1' } } }))).toBeUndefined();
  });
});

describe('types', () => {
  it('types each answer from the document, and the routes it lacks by hand', () => {
    // Checked by the type checker only: the body never runs.
    const typed = async (c: VapiClient) => {
      const file = await dataOf(c.GET('/file/{id}', { params: { path: { id: 'f' } } }));
      expectTypeOf(file.id).toEqualTypeOf<string>();
      expectTypeOf(file).toMatchTypeOf<Omit<VapiFile, 'status' | 'metadata'>>();
      const call = await dataOf(c.POST('/call/web', { body: { assistantId: 'a' } }));
      expectTypeOf(call.webCallUrl).toEqualTypeOf<WebCall['webCallUrl']>();
      // @ts-expect-error: a path parameter is required
      await c.GET('/file/{id}', {});
      // @ts-expect-error: no such route
      await c.GET('/no/such/route');
    };
    expect(typeof typed).toBe('function');
  });
});
