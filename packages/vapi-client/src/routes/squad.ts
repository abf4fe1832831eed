/** Squads: /squad, /squad/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createSquad = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/squad', body, ...o });
export const listSquads = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/squad', query, ...o });
export const getSquad = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/squad/${id}`, ...o });
export const updateSquad = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/squad/${id}`, body, ...o });
export const deleteSquad = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/squad/${id}`, ...o });
