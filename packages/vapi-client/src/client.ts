/**
 * `createVapiClient`: openapi-fetch over the provider's routes (`VapiPaths`), sending through the
 * client's transport. Every route is typed from the OpenAPI document; a call names its method and
 * path, and `dataOf` turns the answer into its payload.
 * @example
 * const vapi = createVapiClient({ token: privateKey });
 * const file = await dataOf(vapi.GET('/file/{id}', { params: { path: { id } } }));
 * @module
 */
import createClient, { type Client } from 'openapi-fetch';
import type { VapiPaths } from './paths.js';
import { createVapiFetch, DEFAULT_BASE_URL, VapiRequest, type VapiClientOptions } from './transport.js';
import type { UploadFileOptions, VapiFilePurpose } from './types.js';

export type VapiClient = Client<VapiPaths>;

export function createVapiClient(options: VapiClientOptions = {}): VapiClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return createClient<VapiPaths>({ baseUrl, fetch: createVapiFetch(options), Request: VapiRequest });
}

/**
 * The payload of an answer. The transport throws for every error status, so an answer that
 * arrives is a success; its data is undefined only when the provider sent an empty body.
 */
export async function dataOf<Answer extends { data?: unknown }>(
  pending: Promise<Answer>,
): Promise<Exclude<Answer['data'], undefined>> {
  const { data } = await pending;
  return data as Exclude<Answer['data'], undefined>;
}

/**
 * The options of POST /file for one file: the multipart form the provider expects (the file
 * under `file`, then `purpose` and `metadata` as JSON), as openapi-fetch's body serializer.
 * @example
 * await dataOf(vapi.POST('/file', { ...fileUpload(blob, { purpose: 'knowledge-base-v2' }), signal }));
 */
export function fileUpload(file: Blob, options: UploadFileOptions = {}) {
  const ownName = typeof (file as { name?: unknown }).name === 'string' ? (file as File).name : '';
  const name = options.name ?? (ownName || 'file');
  const metadata = options.metadata === undefined ? undefined : JSON.stringify(options.metadata);
  const body: { file: string; purpose?: VapiFilePurpose; metadata?: string } = {
    // The document types the binary part as a string; the serializer sends the Blob itself.
    file: name,
    ...(options.purpose && { purpose: options.purpose }),
    ...(metadata !== undefined && { metadata }),
  };
  return {
    body,
    bodySerializer: (): FormData => {
      const form = new FormData();
      form.append('file', file, name);
      if (body.purpose) form.append('purpose', body.purpose);
      if (metadata !== undefined) form.append('metadata', metadata);
      return form;
    },
  };
}
