/**
 * The one REST call the voice SDK makes: POST /call/web.
 *
 * This file is the seam to `@engage/vapi-client`: it follows that package's contract
 * (`createRequester({ baseUrl, token, fetch })`, `createWebCall(requester, body, { signal })`,
 * `VapiApiError` / `VapiNetworkError`) so switching to the package changes only this file.
 * Until the package lands it holds a minimal implementation of exactly that contract.
 * @module
 */

/** A JSON object the SDK passes through without modelling it (assistant, squad, workflow, overrides). */
export type JsonObject = Record<string, unknown>;

/** The body of POST /call/web: one of assistant, squad or workflow (by id or inline). */
export interface CreateWebCallDTO {
  assistantId?: string;
  assistant?: JsonObject;
  assistantOverrides?: JsonObject;
  squadId?: string;
  squad?: JsonObject;
  workflowId?: string;
  workflow?: JsonObject;
  workflowOverrides?: JsonObject;
  roomDeleteOnUserLeaveEnabled?: boolean;
}

/** The answer of POST /call/web, as far as the SDK reads it. */
export interface WebCall {
  id: string;
  webCallUrl: string;
  artifactPlan?: { videoRecordingEnabled?: boolean; [field: string]: unknown };
  assistant?: { voice?: { provider?: string; [field: string]: unknown }; [field: string]: unknown };
  transport?: { callUrl?: string; callToken?: string; websocketCallUrl?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface RequesterOptions {
  baseUrl?: string;
  token?: string;
  fetch?: typeof fetch;
}

export interface Requester {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly fetch: typeof fetch;
}

/** The provider answered with an HTTP error status. `message` is one readable line. */
export class VapiApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The parsed response body (JSON when it parses, else text). */
  readonly body: unknown;

  constructor(init: { status: number; statusText: string; body: unknown }) {
    super(readableMessage(init.status, init.statusText, init.body));
    this.name = 'VapiApiError';
    this.status = init.status;
    this.statusText = init.statusText;
    this.body = init.body;
  }
}

/** The request never got an HTTP answer. */
export class VapiNetworkError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'VapiNetworkError';
  }
}

export function isVapiApiError(error: unknown): error is VapiApiError {
  return error instanceof VapiApiError;
}

export function createRequester(options: RequesterOptions = {}): Requester {
  return {
    baseUrl: (options.baseUrl ?? 'https://api.vapi.ai').replace(/\/+$/, ''),
    token: options.token,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

/** POST /call/web. Rejects with VapiApiError, VapiNetworkError, or the signal's reason when aborted. */
export async function createWebCall(
  requester: Requester,
  body: CreateWebCallDTO,
  options: { signal?: AbortSignal } = {},
): Promise<WebCall> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (requester.token) headers.Authorization = `Bearer ${requester.token}`;
  let res: Response;
  try {
    res = await requester.fetch(`${requester.baseUrl}/call/web`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new VapiNetworkError(
      `POST /call/web failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  const text = await res.text();
  let parsed: unknown = text || undefined;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  if (!res.ok) throw new VapiApiError({ status: res.status, statusText: res.statusText, body: parsed });
  return parsed as WebCall;
}

function readableMessage(status: number, statusText: string, body: unknown): string {
  const prefix = `${status}${statusText ? ` ${statusText}` : ''}`;
  let detail: string | undefined;
  if (typeof body === 'string') detail = body.trim().slice(0, 500) || undefined;
  else if (typeof body === 'object' && body !== null) {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) detail = message;
    else if (Array.isArray(message)) detail = message.map(String).join('; ') || undefined;
    else if (typeof error === 'string' && error) detail = error;
  }
  return detail ? `${prefix}: ${detail}` : prefix;
}
