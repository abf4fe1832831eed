/** Chats: /chat, /chat/{id}, /chat/responses, /chat/web, /chat/web/responses. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const listChats = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/chat', query, ...o });
export const createChat = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/chat', body, ...o });
export const getChat = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/chat/${id}`, ...o });
export const deleteChat = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/chat/${id}`, ...o });
export const createChatResponse = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/chat/responses', body, ...o });
export const createWebChat = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/chat/web', body, ...o });
export const createWebChatResponse = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/chat/web/responses', body, ...o });
