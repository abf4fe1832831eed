/** Templates: /template, /template/pinned, /template/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createTemplate = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/template', body, ...o });
export const listTemplates = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/template', query, ...o });
export const listPinnedTemplates = <T = VapiResource[]>(r: Requester, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/template/pinned', ...o });
export const getTemplate = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/template/${id}`, ...o });
export const updateTemplate = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/template/${id}`, body, ...o });
export const deleteTemplate = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/template/${id}`, ...o });
