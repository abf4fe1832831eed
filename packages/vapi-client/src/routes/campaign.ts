/** Campaigns: /campaign, /campaign/paginated, /campaign/{id}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createCampaign = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/campaign', body, ...o });
export const listCampaigns = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/campaign', query, ...o });
export const listCampaignsPaginated = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/campaign/paginated', query, ...o });
export const getCampaign = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/campaign/${id}`, ...o });
export const updateCampaign = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/campaign/${id}`, body, ...o });
export const deleteCampaign = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/campaign/${id}`, ...o });
