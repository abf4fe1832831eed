/** Knowledge bases: /knowledge-base, /knowledge-base/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, KnowledgeBase } from '../types.js';

export const createKnowledgeBase = <T = KnowledgeBase>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/knowledge-base', body, ...o });
export const listKnowledgeBases = <T = KnowledgeBase[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/knowledge-base', query, ...o });
export const getKnowledgeBase = <T = KnowledgeBase>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/knowledge-base/${id}`, ...o });
export const updateKnowledgeBase = <T = KnowledgeBase>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/knowledge-base/${id}`, body, ...o });
export const deleteKnowledgeBase = <T = KnowledgeBase>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/knowledge-base/${id}`, ...o });
