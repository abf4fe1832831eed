import type { CreateWebCallDTO } from './api.js';
import type { JoinableCall, StartCallOptions } from './types.js';

/** Why the app's server refused to create a call: its status and parsed body, and a readable message. */
export class ServerCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ServerCallError';
  }
}

export interface ServerCallOptions {
  /** Extra headers, for example the signed-in user's `Authorization`; a function is asked per call. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
}

/**
 * A `createCall` for `start()` that asks the app's own server to create the call, so that the provider's
 * private key never reaches the browser: Engage's `POST /api/calls/websocket`, or any endpoint that takes
 * `{ assistantId, assistantOverrides? }` and answers a call with a URL to join (`webCallUrl` or
 * `transport.websocketCallUrl`).
 *
 * @example
 * vapi.start('asst_index', undefined, undefined, undefined, undefined, {
 *   createCall: createCallThroughServer('/api/calls/websocket'),
 * });
 */
export function createCallThroughServer(
  url: string,
  options: ServerCallOptions = {},
): NonNullable<StartCallOptions['createCall']> {
  return async (body: CreateWebCallDTO, { signal }) => {
    if (!body.assistantId) {
      throw new ServerCallError(
        400,
        null,
        'Calls through the server take an assistant id, not an inline assistant.',
      );
    }
    const extra = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {});
    const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...extra },
      body: JSON.stringify({
        assistantId: body.assistantId,
        ...(body.assistantOverrides ? { assistantOverrides: body.assistantOverrides } : {}),
      }),
      signal,
    });
    const parsed: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message =
        typeof (parsed as { message?: unknown } | null)?.message === 'string'
          ? (parsed as { message: string }).message
          : `${response.status} ${response.statusText}`;
      throw new ServerCallError(response.status, parsed, `The server did not create the call: ${message}`);
    }
    const call = parsed as Partial<JoinableCall> | null;
    const joinUrl = call?.webCallUrl ?? call?.transport?.websocketCallUrl;
    if (!call || typeof joinUrl !== 'string') {
      throw new ServerCallError(response.status, parsed, 'The server answered without a call URL to join.');
    }
    return { ...call, webCallUrl: joinUrl } as JoinableCall;
  };
}
