/** The v2 list routes: /v2/call, /v2/call/export, /v2/call/metadata, /v2/assistant, /v2/phone-number. */
import type { Query, Requester, RequestOptions } from '../request.js';

export const exportCallsV2 = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/v2/call/export', query, ...o });
export const listCallsV2 = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/v2/call', query, ...o });
export const getCallMetadataV2 = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/v2/call/metadata', query, ...o });
export const listAssistantsV2 = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/v2/assistant', query, ...o });
export const listPhoneNumbersV2 = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/v2/phone-number', query, ...o });
