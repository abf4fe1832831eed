import { describe, expect, expectTypeOf, it } from 'vitest';
import { createVapiClient, type VapiClient } from './client.js';
import { createRequester } from './request.js';
import { createWebCall } from './routes/call.js';
import { recordingClient } from './testing/recording-client.js';
import type { Assistant, VapiFile, VapiResource, WebCall } from './types.js';

const blob = new Blob(['hello'], { type: 'text/plain' });

describe('request encoding', () => {
  it('URL-encodes path parameters', async () => {
    const { client, calls } = recordingClient();
    await client.assistant.get('a/b?c#d');
    expect(calls[0]?.url.pathname).toBe('/assistant/a%2Fb%3Fc%23d');
  });

  it('serialises query parameters: arrays repeat, dates as ISO, undefined dropped', async () => {
    const { client, calls } = recordingClient();
    await client.call.list({
      limit: 10,
      createdAtGt: new Date('2026-01-02T03:04:05.000Z'),
      id: ['a', 'b'],
      assistantId: undefined,
    });
    const params = calls[0]!.url.searchParams;
    expect(params.get('limit')).toBe('10');
    expect(params.get('createdAtGt')).toBe('2026-01-02T03:04:05.000Z');
    expect(params.getAll('id')).toEqual(['a', 'b']);
    expect(params.has('assistantId')).toBe(false);
  });

  it('sends JSON bodies with a JSON content type', async () => {
    const { client, calls } = recordingClient();
    await client.assistant.update('a1', { name: 'New' });
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.body))).toEqual({ name: 'New' });
  });

  it('uploads files as multipart with file, purpose and metadata fields', async () => {
    const { client, calls } = recordingClient();
    await client.file.upload(new File(['# hi'], 'notes.md', { type: 'text/markdown' }), {
      purpose: 'knowledge-base-v2',
      metadata: { source: 'import' },
    });
    const form = calls[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const part = form.get('file') as File;
    expect(part.name).toBe('notes.md');
    expect(await part.text()).toBe('# hi');
    expect(form.get('purpose')).toBe('knowledge-base-v2');
    expect(JSON.parse(String(form.get('metadata')))).toEqual({ source: 'import' });
    // fetch sets the multipart boundary itself.
    expect(calls[0]?.headers.get('content-type')).toBeNull();
  });

  it('sends a voice clone as multipart with one part per sample', async () => {
    const { client, calls } = recordingClient();
    await client.provider.cloneElevenLabsVoice({ name: 'Me', files: [blob, blob], labels: { accent: 'uk' } });
    const form = calls[0]?.body as FormData;
    expect(form.get('name')).toBe('Me');
    expect(form.getAll('files')).toHaveLength(2);
    expect(form.get('labels')).toBe('{"accent":"uk"}');
  });

  it('sends no Authorization header without a token, and asks a token function each time', async () => {
    const { client, calls } = recordingClient(null);
    await client.file.list();
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
    await dynamic.file.list();
    await dynamic.file.list();
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
  });
});

describe('types', () => {
  it("keeps each route's payload type through the client, and lets callers narrow unknown ones", () => {
    // Checked by the type checker only: the body never runs.
    const typed = async (c: VapiClient) => {
      expectTypeOf(await c.file.upload(blob)).toEqualTypeOf<VapiFile>();
      expectTypeOf(await c.file.list()).toEqualTypeOf<VapiFile[]>();
      expectTypeOf(await c.assistant.get('a')).toEqualTypeOf<Assistant>();
      expectTypeOf(await c.call.createWeb({ assistantId: 'a' })).toEqualTypeOf<WebCall>();
      expectTypeOf(await c.squad.get('s')).toEqualTypeOf<VapiResource>();
      expectTypeOf(await c.squad.get<{ members: unknown[] }>('s')).toEqualTypeOf<{ members: unknown[] }>();
      expectTypeOf(await createWebCall(createRequester(), { assistantId: 'a' })).toEqualTypeOf<WebCall>();
    };
    expect(typeof typed).toBe('function');
  });
});
