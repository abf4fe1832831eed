/** Sessions: /session, /session/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createSession = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/session', body, ...o });
export const listSessions = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/session', query, ...o });
export const getSession = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/session/${id}`, ...o });
export const updateSession = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/session/${id}`, body, ...o });
export const deleteSession = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/session/${id}`, ...o });
