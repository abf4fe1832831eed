/** Logs: GET/DELETE /log and GET/DELETE /logs. */
import type { Query, Requester, RequestOptions } from '../request.js';

export const listLog = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/log', query, ...o });
export const deleteLog = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: '/log', query, ...o });
export const listLogs = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/logs', query, ...o });
export const deleteLogs = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: '/logs', query, ...o });
