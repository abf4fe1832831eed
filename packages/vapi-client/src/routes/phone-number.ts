/** Phone numbers: /phone-number, /phone-number/{id}, /phone-number/import/{twilio,vonage}. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const createPhoneNumber = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/phone-number', body, ...o });
export const listPhoneNumbers = <T = VapiResource[]>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/phone-number', query, ...o });
export const getPhoneNumber = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/phone-number/${id}`, ...o });
export const updatePhoneNumber = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/phone-number/${id}`, body, ...o });
export const deletePhoneNumber = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/phone-number/${id}`, ...o });
export const importTwilioPhoneNumber = <T = VapiResource>(
  r: Requester,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: '/phone-number/import/twilio', body, ...o });
export const importVonagePhoneNumber = <T = VapiResource>(
  r: Requester,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: '/phone-number/import/vonage', body, ...o });
