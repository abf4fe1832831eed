/** Tools: /tool, /tool/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { CreateToolDTO, JsonObject, Tool } from '../types.js';

export const createTool = <T = Tool>(r: Requester, body: CreateToolDTO, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/tool', body, ...o });
export const listTools = <T = Tool[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/tool', query, ...o });
export const getTool = <T = Tool>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/tool/${id}`, ...o });
export const updateTool = <T = Tool>(r: Requester, id: string, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'PATCH', path: path`/tool/${id}`, body, ...o });
export const deleteTool = <T = Tool>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/tool/${id}`, ...o });
