/** Assistants: /assistant, /assistant/{id}, /assistant/{id}/version. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { Assistant, CreateAssistantDTO, UpdateAssistantDTO } from '../types.js';

export const createAssistant = <T = Assistant>(r: Requester, body: CreateAssistantDTO, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/assistant', body, ...o });
export const listAssistants = <T = Assistant[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/assistant', query, ...o });
export const getAssistant = <T = Assistant>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/assistant/${id}`, ...o });
/** PATCH: fields given replace the stored ones; `model` is replaced whole, so send all of it. */
export const updateAssistant = <T = Assistant>(
  r: Requester,
  id: string,
  body: UpdateAssistantDTO,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/assistant/${id}`, body, ...o });
/** PUT: replaces the whole assistant. */
export const replaceAssistant = <T = Assistant>(
  r: Requester,
  id: string,
  body: CreateAssistantDTO,
  o?: RequestOptions,
) => r.request<T>({ method: 'PUT', path: path`/assistant/${id}`, body, ...o });
export const deleteAssistant = <T = Assistant>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/assistant/${id}`, ...o });
export const listAssistantVersions = <T = unknown>(
  r: Requester,
  id: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/assistant/${id}/version`, query, ...o });
