import { mimeTypeFor } from '../lib/file-types';

/** A provider file as the import tool reads it (SPEC §3, §7). */
export interface ProviderFile {
  id: string;
  name: string;
  bytes: number;
  mimetype: string;
  status: string;
  createdAt: string;
  url: string;
}

export interface AssistantSummary {
  id: string;
  name: string;
}

export interface Assistant extends AssistantSummary {
  model?: Record<string, unknown> & { toolIds?: string[] };
}

export interface QueryToolInput {
  type: 'query';
  function: { name: string };
  knowledgeBases: { provider: 'google'; name: string; description: string; fileIds: string[] }[];
}

/** An HTTP error answer of the provider (or of the proxy in front of it). */
export class ProviderHttpError extends Error {
  readonly __isProviderHttpError = true;
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The raw response body as text, for 'Upload failed: …'. */
    readonly body: string,
    /** The Retry-After header, when the provider sent one. */
    readonly retryAfter: string | null,
  ) {
    super(`${status} ${statusText}`);
    this.name = 'ProviderHttpError';
  }
}

/** The request never got an answer (offline, DNS, connection reset). */
export class ProviderNetworkError extends Error {
  readonly __isProviderNetworkError = true;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Network request failed', { cause });
    this.name = 'ProviderNetworkError';
  }
}

export const isProviderHttpError = (e: unknown): e is ProviderHttpError =>
  typeof e === 'object' && e !== null && (e as ProviderHttpError).__isProviderHttpError === true;
export const isProviderNetworkError = (e: unknown): e is ProviderNetworkError =>
  typeof e === 'object' && e !== null && (e as ProviderNetworkError).__isProviderNetworkError === true;

/** The provider routes the import tool uses, with errors as ProviderHttpError/ProviderNetworkError. */
export interface ProviderApi {
  uploadFile(file: Blob, name: string, options?: { signal?: AbortSignal }): Promise<ProviderFile>;
  listFiles(options?: { signal?: AbortSignal }): Promise<ProviderFile[]>;
  getFile(id: string, options?: { signal?: AbortSignal }): Promise<ProviderFile>;
  deleteFile(id: string, options?: { signal?: AbortSignal }): Promise<void>;
  createQueryTool(input: QueryToolInput): Promise<{ id: string }>;
  listAssistants(): Promise<AssistantSummary[]>;
  getAssistant(id: string): Promise<Assistant>;
  updateAssistant(id: string, patch: { model: Record<string, unknown> }): Promise<Assistant>;
}

export interface ProviderApiOptions {
  /** Base URL without trailing slash: the provider's, or `${origin}/api/provider`. */
  baseUrl: string;
  /** The bearer token: the typed private key, or the user's access token for the proxy. */
  getToken: () => string | null | Promise<string | null>;
  fetch?: typeof fetch;
}

/**
 * A thin fetch client for the import tool's routes. It makes exactly one request per call: retries
 * and pacing belong to the pipeline, which decides what is safe to repeat.
 */
export function createProviderApi({
  baseUrl,
  getToken,
  fetch: fetchImpl = fetch,
}: ProviderApiOptions): ProviderApi {
  const root = baseUrl.replace(/\/+$/, '');
  async function request<T>(
    method: string,
    path: string,
    init: { body?: BodyInit; json?: unknown; signal?: AbortSignal } = {},
  ) {
    const headers = new Headers({ Accept: 'application/json' });
    const token = await getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    }
    let response: Response;
    try {
      response = await fetchImpl(`${root}${path}`, { method, headers, body, signal: init.signal });
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') throw error;
      throw new ProviderNetworkError(error);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      throw new ProviderHttpError(
        response.status,
        response.statusText || defaultStatusText(response.status),
        text,
        response.headers.get('Retry-After'),
      );
    }
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ProviderHttpError(response.status, 'Unreadable response', text, null);
    }
  }
  const enc = encodeURIComponent;
  return {
    uploadFile(file, name, options = {}) {
      const form = new FormData();
      form.append('file', new File([file], name, { type: mimeTypeFor(name) }));
      return request<ProviderFile>('POST', '/file', { body: form, signal: options.signal });
    },
    async listFiles(options = {}) {
      const files = await request<ProviderFile[] | null>('GET', '/file', { signal: options.signal });
      return Array.isArray(files) ? files : [];
    },
    getFile: (id, options = {}) =>
      request<ProviderFile>('GET', `/file/${enc(id)}`, { signal: options.signal }),
    async deleteFile(id, options = {}) {
      await request<unknown>('DELETE', `/file/${enc(id)}`, { signal: options.signal });
    },
    createQueryTool: (input) => request<{ id: string }>('POST', '/tool', { json: input }),
    async listAssistants() {
      const list = await request<AssistantSummary[] | null>('GET', '/assistant');
      return Array.isArray(list) ? list : [];
    },
    getAssistant: (id) => request<Assistant>('GET', `/assistant/${enc(id)}`),
    updateAssistant: (id, patch) => request<Assistant>('PATCH', `/assistant/${enc(id)}`, { json: patch }),
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** HTTP/2 answers carry no reason phrase; the messages of SPEC §8 read better with one. */
function defaultStatusText(status: number): string {
  return STATUS_TEXT[status] ?? 'Error';
}
