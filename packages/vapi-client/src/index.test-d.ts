// Type tests of the package's public surface (vitest typecheck): a change that widens or breaks a
// caller's types fails here before it reaches the site or the import tool.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createRequester,
  createVapiClient,
  getFile,
  isVapiApiError,
  isVapiNetworkError,
  listFiles,
  sleep,
  uploadFile,
  type Assistant,
  type CreateWebCallDTO,
  type KnowledgeBaseV2,
  type ListFilesQuery,
  type RequestOptions,
  type Requester,
  type RequesterOptions,
  type TokenSource,
  type UpdateFileDTO,
  type UploadFileOptions,
  type VapiApiError,
  type VapiClient,
  type VapiFile,
  type VapiNetworkError,
  type WebCall,
} from './index.js';

const vapi = createVapiClient({ token: 'sk' });

describe('createVapiClient', () => {
  it('takes the requester options and returns the client with its requester', () => {
    expectTypeOf(createVapiClient).parameter(0).toEqualTypeOf<RequesterOptions | undefined>();
    expectTypeOf(vapi).toEqualTypeOf<VapiClient>();
    expectTypeOf(vapi.requester).toEqualTypeOf<Requester>();
    expectTypeOf(createRequester).returns.toEqualTypeOf<Requester>();
  });

  it('accepts a fixed token or one asked for before every request', () => {
    expectTypeOf<string>().toExtend<TokenSource>();
    expectTypeOf<() => Promise<string | null>>().toExtend<TokenSource>();
    expectTypeOf<() => number>().not.toExtend<TokenSource>();
  });
});

describe('file routes', () => {
  it('upload takes a Blob and upload options with a signal, and resolves with the file', () => {
    expectTypeOf(vapi.file.upload).parameters.toEqualTypeOf<
      [file: Blob, options?: UploadFileOptions & RequestOptions]
    >();
    expectTypeOf(vapi.file.upload(new Blob(['x']))).resolves.toEqualTypeOf<VapiFile>();
    expectTypeOf<RequestOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
  });

  it('list takes the query with purpose and resolves with a plain array', () => {
    expectTypeOf(vapi.file.list).parameter(0).toEqualTypeOf<ListFilesQuery | undefined>();
    expectTypeOf(vapi.file.list({ purpose: 'assistant' })).resolves.toEqualTypeOf<VapiFile[]>();
  });

  it('keeps each route’s type parameter when bound to the client', () => {
    interface MyFile {
      id: string;
      mine: true;
    }
    expectTypeOf(vapi.file.get<MyFile>('file_1')).resolves.toEqualTypeOf<MyFile>();
    expectTypeOf(vapi.file.get('file_1')).resolves.toEqualTypeOf<VapiFile>();
  });

  it('update requires the new name', () => {
    expectTypeOf<UpdateFileDTO>().toHaveProperty('name').toEqualTypeOf<string>();
    // @ts-expect-error PATCH /file/{id} takes { name } and nothing else is optional about it
    void vapi.file.update('file_1', {});
  });

  it('standalone functions take the requester first', () => {
    expectTypeOf(getFile).parameter(0).toEqualTypeOf<Requester>();
    expectTypeOf(uploadFile).parameter(1).toEqualTypeOf<Blob>();
    expectTypeOf(listFiles<VapiFile[]>).returns.resolves.toEqualTypeOf<VapiFile[]>();
  });
});

describe('calls, assistants and knowledge bases', () => {
  it('createWeb takes the web-call body (assistantVersion a name or null) and resolves with a web call', () => {
    expectTypeOf(vapi.call.createWeb).parameter(0).toEqualTypeOf<CreateWebCallDTO>();
    expectTypeOf<CreateWebCallDTO['assistantVersion']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf(vapi.call.createWeb({ assistantId: 'a' })).resolves.toEqualTypeOf<WebCall>();
    expectTypeOf<WebCall['webCallUrl']>().toEqualTypeOf<string>();
  });

  it('assistant.list resolves with assistants; knowledgeBaseV2.list with v2 bases', () => {
    expectTypeOf(vapi.assistant.list()).resolves.toEqualTypeOf<Assistant[]>();
    expectTypeOf(vapi.knowledgeBaseV2.list()).resolves.toEqualTypeOf<KnowledgeBaseV2[]>();
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
