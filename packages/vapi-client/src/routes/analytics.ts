/** Analytics: POST /analytics. */
import type { Requester, RequestOptions } from '../request.js';
import type { JsonObject } from '../types.js';

export const queryAnalytics = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/analytics', body, ...o });
