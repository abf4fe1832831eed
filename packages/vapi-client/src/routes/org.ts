/** Organisations: /org, /org/{id}, users, leave, members, invites, roles, auth. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createOrg = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/org', body, ...o });
export const listOrgs = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/org', query, ...o });
export const getOrg = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/org/${id}`, ...o });
export const updateOrg = <T = VapiResource>(r: Requester, id: string, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'PATCH', path: path`/org/${id}`, body, ...o });
export const deleteOrg = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/org/${id}`, ...o });
export const listOrgUsers = <T = unknown>(r: Requester, id: string, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/org/${id}/user`, query, ...o });
export const leaveOrg = <T = unknown>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/org/${id}/leave`, ...o });
export const removeOrgMember = <T = unknown>(r: Requester, id: string, userId: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/org/${id}/member/${userId}/leave`, ...o });
export const inviteOrgUsers = <T = unknown>(r: Requester, id: string, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: path`/org/${id}/invite`, body, ...o });
export const updateOrgRole = <T = unknown>(r: Requester, id: string, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'PATCH', path: path`/org/${id}/role`, body, ...o });
export const getOrgAuth = <T = unknown>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/org/${id}/auth`, ...o });
