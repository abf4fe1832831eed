/** Provider-specific routes: /{provider}/workflows, locations, voice search and add, 11labs voice clone. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject } from '../types.js';

export const listProviderWorkflows = <T = unknown>(
  r: Requester,
  provider: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/${provider}/workflows`, query, ...o });
export const listProviderWorkflowHooks = <T = unknown>(
  r: Requester,
  provider: string,
  workflowId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/${provider}/workflows/${workflowId}/hooks`, ...o });
export const listProviderLocations = <T = unknown>(
  r: Requester,
  provider: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/${provider}/locations`, query, ...o });
/** GET /{provider}/voices/search. */
export const searchProviderVoices = <T = unknown>(
  r: Requester,
  provider: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/${provider}/voices/search`, query, ...o });
/** GET /{provider}/voice/search (the singular form the provider also serves). */
export const searchProviderVoice = <T = unknown>(
  r: Requester,
  provider: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/${provider}/voice/search`, query, ...o });
/** POST /{provider}/voices/add. */
export const addProviderVoices = <T = unknown>(
  r: Requester,
  provider: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/${provider}/voices/add`, body, ...o });
/** POST /{provider}/voice/add. */
export const addProviderVoice = <T = unknown>(
  r: Requester,
  provider: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/${provider}/voice/add`, body, ...o });

export interface CloneVoiceInput {
  name: string;
  /** Audio samples of the voice. */
  files: Blob[];
  description?: string;
  /** Sent as a JSON string. */
  labels?: Record<string, string>;
}

/** POST /11labs/voice/clone as multipart: name, description, labels and one `files` part per sample. */
export const cloneElevenLabsVoice = <T = unknown>(
  r: Requester,
  input: CloneVoiceInput,
  o?: RequestOptions,
) => {
  const form = new FormData();
  form.append('name', input.name);
  if (input.description) form.append('description', input.description);
  if (input.labels) form.append('labels', JSON.stringify(input.labels));
  input.files.forEach((file, i) => {
    const own = typeof (file as { name?: unknown }).name === 'string' ? (file as File).name : '';
    form.append('files', file, own || `sample-${i + 1}`);
  });
  return r.request<T>({ method: 'POST', path: '/11labs/voice/clone', form, ...o });
};
