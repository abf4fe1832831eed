// Type tests of the package's public surface (vitest typecheck): a change that widens or breaks a
// caller's types fails here before it reaches the site or the import tool.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createVapiClient,
  dataOf,
  fileUpload,
  isVapiApiError,
  isVapiNetworkError,
  sleep,
  type CreateWebCallDTO,
  type KnowledgeBase,
  type TokenSource,
  type VapiApiError,
  type VapiClient,
  type VapiClientOptions,
  type VapiNetworkError,
  type WebCall,
} from './index.js';

const vapi = createVapiClient({ token: 'sk' });
const id = { params: { path: { id: 'file_1' } } };

describe('createVapiClient', () => {
  it('takes the client options and returns the client', () => {
    expectTypeOf(createVapiClient).parameter(0).toEqualTypeOf<VapiClientOptions | undefined>();
    expectTypeOf(vapi).toEqualTypeOf<VapiClient>();
  });

  it('accepts a fixed token or one asked for before every request', () => {
    expectTypeOf<string>().toExtend<TokenSource>();
    expectTypeOf<() => Promise<string | null>>().toExtend<TokenSource>();
    expectTypeOf<() => number>().not.toExtend<TokenSource>();
  });
});

describe('file routes', () => {
  it('upload takes the multipart options of fileUpload and a signal', () => {
    void vapi.POST('/file', {
      ...fileUpload(new Blob(['x']), { purpose: 'assistant' }),
      signal: AbortSignal.abort(),
    });
    // @ts-expect-error the purposes are the document's
    void fileUpload(new Blob(['x']), { purpose: 'anything' });
  });

  it('list takes the query with purpose and resolves with a plain array', async () => {
    const files = await dataOf(vapi.GET('/file', { params: { query: { purpose: 'knowledge-base-v2' } } }));
    expectTypeOf(files).toBeArray();
    expectTypeOf(files[0]!.id).toEqualTypeOf<string>();
  });

  it('update requires the new name', () => {
    void vapi.PATCH('/file/{id}', { ...id, body: { name: 'new' } });
    // @ts-expect-error PATCH /file/{id} takes a body
    void vapi.PATCH('/file/{id}', { ...id });
  });
});

describe('calls and the routes the document lacks', () => {
  it('POST /call/web takes the web-call body (assistantVersion a name or null) and resolves with a web call', async () => {
    expectTypeOf<CreateWebCallDTO['assistantVersion']>().toEqualTypeOf<string | null | undefined>();
    const call = await dataOf(vapi.POST('/call/web', { body: { assistantId: 'a' } }));
    expectTypeOf(call.webCallUrl).toEqualTypeOf<string>();
    expectTypeOf(call.id).toEqualTypeOf<string>();
    expectTypeOf<WebCall['webCallUrl']>().toEqualTypeOf<string>();
  });

  it('the v1 knowledge bases answer KnowledgeBase', async () => {
    expectTypeOf(await dataOf(vapi.GET('/knowledge-base/{id}', id))).toEqualTypeOf<KnowledgeBase>();
  });
});

describe('error guards and sleep', () => {
  it('narrow unknown errors to the client’s error classes', () => {
    const error: unknown = new Error('x');
    if (isVapiApiError(error)) {
      expectTypeOf(error).toEqualTypeOf<VapiApiError>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.body).toEqualTypeOf<unknown>();
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      expectTypeOf(error.retryable).toEqualTypeOf<boolean>();
    }
    if (isVapiNetworkError(error)) {
      expectTypeOf(error).toEqualTypeOf<VapiNetworkError>();
      expectTypeOf(error.timedOut).toEqualTypeOf<boolean>();
      expectTypeOf(error.retryable).toEqualTypeOf<boolean>();
    }
    expectTypeOf(isVapiApiError).guards.toEqualTypeOf<VapiApiError>();
    expectTypeOf(isVapiNetworkError).guards.toEqualTypeOf<VapiNetworkError>();
  });

  it('sleep takes milliseconds and an optional signal', () => {
    expectTypeOf(sleep).parameters.toEqualTypeOf<[ms: number, signal?: AbortSignal]>();
    expectTypeOf(sleep).returns.toEqualTypeOf<Promise<void>>();
  });
});
