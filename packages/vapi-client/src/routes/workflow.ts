/** Workflows: /workflow, /workflow/{id}, /workflow/generate. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const listWorkflows = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/workflow', query, ...o });
export const createWorkflow = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/workflow', body, ...o });
export const getWorkflow = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/workflow/${id}`, ...o });
export const updateWorkflow = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/workflow/${id}`, body, ...o });
export const deleteWorkflow = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/workflow/${id}`, ...o });
export const generateWorkflow = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/workflow/generate', body, ...o });
