/** Support: POST /support/ticket. */
import type { Requester, RequestOptions } from '../request.js';
import type { JsonObject } from '../types.js';

export const createSupportTicket = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/support/ticket', body, ...o });
