/** Voice library: /voice-library/{provider}[/accents], /voice-library/sync[/{provider}], create-sesame-voice. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject } from '../types.js';

export const listVoiceLibrary = <T = unknown>(
  r: Requester,
  provider: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/voice-library/${provider}`, query, ...o });
export const listVoiceLibraryAccents = <T = unknown>(r: Requester, provider: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/voice-library/${provider}/accents`, ...o });
export const syncVoiceLibraryProvider = <T = unknown>(r: Requester, provider: string, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: path`/voice-library/sync/${provider}`, ...o });
export const syncVoiceLibrary = <T = unknown>(r: Requester, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/voice-library/sync', ...o });
export const createSesameVoice = <T = unknown>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/voice-library/create-sesame-voice', body, ...o });
