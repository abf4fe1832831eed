/** Calls: POST/GET /call, /call/{id}, /call/phone, /call/web. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { Call, CreateWebCallDTO, JsonObject, WebCall } from '../types.js';

export const createCall = <T = Call>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/call', body, ...o });
export const listCalls = <T = Call[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/call', query, ...o });
export const getCall = <T = Call>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/call/${id}`, ...o });
export const updateCall = <T = Call>(r: Requester, id: string, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'PATCH', path: path`/call/${id}`, body, ...o });
export const deleteCall = <T = Call>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/call/${id}`, ...o });
export const createPhoneCall = <T = Call>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/call/phone', body, ...o });
/** Creates a web call; the only route that accepts the public key. */
export const createWebCall = <T = WebCall>(r: Requester, body: CreateWebCallDTO, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/call/web', body, ...o });
