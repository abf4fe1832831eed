/**
 * The client's transport: a `fetch` that adds the bearer token, ends a request that has had no
 * answer in time, retries when asked to, and turns every failure into a typed error. openapi-fetch
 * builds each request from the generated routes and sends it through here, so a caller only ever
 * sees a parsed answer, a `VapiApiError` or a `VapiNetworkError`.
 * @module
 */
import { VapiApiError, VapiNetworkError } from './errors.js';
import { isRetryableError, retryAfterOf, retryDelay } from './retry.js';
import { abortReason, sleep } from './sleep.js';

/** The bearer token: a fixed value, or a function asked before every request (null sends none). */
export type TokenSource = string | (() => string | null | Promise<string | null>);

/**
 * Retries for 408, 429, 5xx and network failures, with exponential backoff and jitter, honouring
 * `Retry-After` and `X-RateLimit-Reset`. Off unless given.
 */
export interface RetryPolicy {
  /** How many times to try again after the first attempt (the provider's SDK uses 2). */
  retries: number;
  /** First backoff delay in ms (default 1000); it doubles each retry. */
  minDelayMs?: number;
  /** Upper bound for any single wait, including Retry-After (default 60000). */
  maxDelayMs?: number;
  /** Adds up to 25% random jitter to computed backoffs (default true). */
  jitter?: boolean;
}

export interface VapiClientOptions {
  /** API base URL without a trailing slash (default https://api.vapi.ai). */
  baseUrl?: string;
  token?: TokenSource;
  /** A fetch implementation (default: the global fetch, bound). */
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Ends a request that has had no answer after this many ms with a VapiNetworkError (default: none). */
  timeoutMs?: number;
  /**
   * Answers longer than this many characters are not read past it: a success then has no data, an
   * error no body. Default: {@link DEFAULT_MAX_BODY_CHARS}.
   */
  maxBodyChars?: number;
}

/**
 * The default cap on an answer's length: far above any page the provider sends (a page of calls
 * with their transcripts is a few MB), and a bound on what a misbehaving upstream can make a server
 * hold in memory.
 */
export const DEFAULT_MAX_BODY_CHARS = 64 * 1024 * 1024;

export const DEFAULT_BASE_URL = 'https://api.vapi.ai';

/** An answer whose body is still to be read, with the timer and listener to clear once it is. */
interface Sent {
  res: Response;
  timedOut: () => boolean;
  done: () => void;
}

/** Statuses whose answer may not carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Milliseconds to wait from Retry-After (seconds or HTTP date) or X-RateLimit-Reset (epoch seconds). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const after = headers.get('retry-after');
  if (after) {
    if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.max(0, Number(after) * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset');
  if (reset && /^\d+$/.test(reset.trim())) {
    const n = Number(reset);
    // Epoch seconds when large, else a number of seconds to wait.
    return Math.max(0, n > 1e9 ? n * 1000 - now : n * 1000);
  }
  return undefined;
}

/** The body as text, or undefined once it passes `maxChars` (reading stops there). */
async function readText(res: Response, maxChars: number): Promise<string | undefined> {
  if (!res.body) return '';
  if (maxChars === Infinity) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
    if (text.length > maxChars) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
  }
}

/** The body each request was built with, so that it is sent as given rather than read back. */
const givenBodies = new WeakMap<Request, BodyInit>();

/**
 * The Request class openapi-fetch builds with: it keeps the body given to it (JSON text, or the
 * FormData of an upload), which the transport then sends as it is, to every attempt, instead of
 * serialising a multipart form and reading it back.
 */
export class VapiRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    // An upload's form is not encoded here only to be sent as it is: the fetch underneath encodes it.
    super(input, init?.body instanceof FormData ? { ...init, body: null } : init);
    if (init?.body !== undefined && init.body !== null) givenBodies.set(this, init.body);
  }
}

/**
 * The body for the fetch underneath, as a custom fetch can read it: the one given (JSON text, a
 * FormData whose boundary the fetch then writes itself), else the request's bytes.
 */
async function bodyOf(
  request: Request,
  given: BodyInit | undefined,
  headers: Headers,
): Promise<BodyInit | null> {
  if (given instanceof FormData) headers.delete('content-type');
  if (given !== undefined) return given;
  return request.body === null ? null : request.arrayBuffer();
}

/**
 * A success's text as JSON for openapi-fetch to parse: as it is when it parses, else as a JSON
 * string, so that a caller gets the raw text as the answer (as for an error's body) and never a
 * SyntaxError from inside the client.
 */
function asJsonText(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

function parseErrorBody(text: string | undefined, type: string): unknown {
  if (!text) return undefined;
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The fetch the client sends every request through.
 * @example
 * const vapiFetch = createVapiFetch({ token: privateKey, timeoutMs: 10_000 });
 */
export function createVapiFetch(options: VapiClientOptions = {}): typeof fetch {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const policy = options.retry;
  const maxChars = options.maxBodyChars ?? DEFAULT_MAX_BODY_CHARS;

  async function token(): Promise<string | null> {
    const t = options.token;
    if (t === undefined) return null;
    return typeof t === 'function' ? t() : t;
  }

  async function send(request: Request, given: BodyInit | undefined, label: string): Promise<Sent> {
    const headers = new Headers(request.headers);
    if (!headers.has('accept')) headers.set('Accept', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (!headers.has(name)) headers.set(name, value);
    }
    const t = await token();
    if (t && !headers.has('authorization')) headers.set('Authorization', `Bearer ${t}`);
    // The signal may have fired while the token was being fetched.
    if (request.signal.aborted) throw abortReason(request.signal);

    const controller = new AbortController();
    const onAbort = () => controller.abort(request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs)
        : undefined;
    const done = () => {
      if (timer) clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
    };
    try {
      const body = await bodyOf(request, given, headers);
      const res = await doFetch(request.url, {
        method: request.method,
        headers,
        body,
        signal: controller.signal,
      });
      return { res, timedOut: () => timedOut, done };
    } catch (error) {
      done();
      if (request.signal.aborted) throw abortReason(request.signal);
      if (timedOut)
        throw new VapiNetworkError(`${label} timed out after ${options.timeoutMs} ms`, {
          cause: error,
          timedOut: true,
        });
      throw new VapiNetworkError(`${label} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async function attempt(request: Request, given: BodyInit | undefined): Promise<Response> {
    const label = `${request.method} ${new URL(request.url).pathname}`;
    const sent = await send(request, given, label);
    const { res } = sent;
    let text: string | undefined;
    try {
      text = await readText(res, maxChars);
    } catch (error) {
      if (request.signal.aborted) throw abortReason(request.signal);
      throw new VapiNetworkError(`${label}: the answer was cut off`, {
        cause: error,
        timedOut: sent.timedOut(),
      });
    } finally {
      sent.done();
    }
    if (!res.ok) {
      throw new VapiApiError({
        status: res.status,
        statusText: res.statusText,
        body: parseErrorBody(text, res.headers.get('content-type') ?? ''),
        retryAfterMs: retryAfterMs(res.headers),
      });
    }
    // A fresh answer from the text already read: openapi-fetch parses it, and an empty (or
    // too long) one becomes `data: undefined`.
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    const body = text && !NULL_BODY_STATUSES.has(res.status) ? asJsonText(text) : null;
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  }

  function backoff(retry: number, error: unknown): number {
    const p = policy as RetryPolicy;
    return retryDelay(retry, retryAfterOf(error), {
      ...(p.minDelayMs !== undefined && { minDelayMs: p.minDelayMs }),
      ...(p.maxDelayMs !== undefined && { maxDelayMs: p.maxDelayMs }),
      ...(p.jitter === false && { jitter: 0 }),
    });
  }

  return async (input, init) => {
    // Our own class, not the global Request: a server library may have replaced that global.
    const request = input instanceof VapiRequest && init === undefined ? input : new Request(input, init);
    const given = givenBodies.get(request) ?? (typeof init?.body === 'string' ? init.body : undefined);
    for (let retry = 0; ; retry++) {
      try {
        // A clone per attempt: a body can be read once.
        return await attempt(given === undefined ? request.clone() : request, given);
      } catch (error) {
        if (!policy || retry >= policy.retries || !isRetryableError(error)) throw error;
        await sleep(backoff(retry, error), request.signal);
      }
    }
  };
}
