/**
 * The one request function: builds the URL, adds the bearer token, sends JSON or multipart, parses
 * the answer and turns every failure into a typed error. Retries are opt-in.
 * @module
 */
import { VapiApiError, VapiNetworkError } from './errors.js';
import { isRetryableError, retryAfterOf, retryDelay } from './retry.js';
import { abortReason, sleep } from './sleep.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query value; arrays repeat the key, dates are sent as ISO strings, null/undefined are left out. */
export type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** The bearer token: a fixed value, or a function asked before every request (null sends none). */
export type TokenSource = string | (() => string | null | Promise<string | null>);

/** Options every route function accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the request (and any retry wait). Aborting rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra headers for this request only. */
  headers?: Record<string, string>;
}

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

export interface RequesterOptions {
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
  /** Bodies longer than this are not parsed (the answer's body is then undefined). Default: no limit. */
  maxBodyChars?: number;
}

/** One request as a route function describes it. */
export interface RequestSpec extends RequestOptions {
  method: HttpMethod;
  /** Path with its parameters already encoded (use `path` to build it). */
  path: string;
  query?: Query;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body; the browser or undici sets the boundary. */
  form?: FormData;
  /** False for the few routes that must not carry the Authorization header. */
  auth?: boolean;
}

export interface Requester {
  readonly baseUrl: string;
  /** Sends one request and resolves with the parsed body (undefined for an empty answer). */
  request<T>(spec: RequestSpec): Promise<T>;
}

export const DEFAULT_BASE_URL = 'https://api.vapi.ai';

/**
 * Builds a path, URL-encoding every interpolated value.
 * @example path`/assistant/${id}/version` // '/assistant/a%2Fb/version' for id 'a/b'
 */
export function path(strings: TemplateStringsArray, ...values: readonly string[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += encodeURIComponent(value) + (strings[i + 1] ?? '');
  });
  return out;
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function parseBody(res: Response, maxChars = Infinity): Promise<unknown> {
  const text = await res.text();
  if (!text || text.length > maxChars) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

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

/**
 * Creates the requester every route function takes as its first argument.
 * @example
 * const r = createRequester({ token: privateKey });
 * const file = await uploadFile(r, blob, { name: 'faq.md' });
 */
export function createRequester(options: RequesterOptions = {}): Requester {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const policy = options.retry;

  async function token(): Promise<string | null> {
    const t = options.token;
    if (t === undefined) return null;
    return typeof t === 'function' ? t() : t;
  }

  async function attempt(spec: RequestSpec): Promise<unknown> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...options.headers,
      ...spec.headers,
    };
    let body: BodyInit | undefined;
    if (spec.form) body = spec.form;
    else if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    if (spec.auth !== false) {
      const t = await token();
      if (t) headers.Authorization = `Bearer ${t}`;
    }

    const controller = new AbortController();
    const onAbort = () => controller.abort(spec.signal?.reason);
    // The signal may have fired while the token was being fetched.
    if (spec.signal?.aborted) throw abortReason(spec.signal);
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs)
        : undefined;
    try {
      let res: Response;
      try {
        res = await doFetch(`${baseUrl}${spec.path}${queryString(spec.query)}`, {
          method: spec.method,
          headers,
          body,
          signal: controller.signal,
        });
      } catch (error) {
        if (spec.signal?.aborted) throw abortReason(spec.signal);
        if (timedOut)
          throw new VapiNetworkError(`${spec.method} ${spec.path} timed out after ${options.timeoutMs} ms`, {
            cause: error,
            timedOut: true,
          });
        throw new VapiNetworkError(`${spec.method} ${spec.path} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      let parsed: unknown;
      try {
        parsed = await parseBody(res, options.maxBodyChars);
      } catch (error) {
        if (spec.signal?.aborted) throw abortReason(spec.signal);
        throw new VapiNetworkError(`${spec.method} ${spec.path}: the answer was cut off`, {
          cause: error,
          timedOut,
        });
      }
      if (!res.ok) {
        throw new VapiApiError({
          status: res.status,
          statusText: res.statusText,
          body: parsed,
          retryAfterMs: retryAfterMs(res.headers),
        });
      }
      return parsed;
    } finally {
      if (timer) clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
  }

  function backoff(retry: number, error: unknown): number {
    const p = policy as RetryPolicy;
    return retryDelay(retry, retryAfterOf(error), {
      ...(p.minDelayMs !== undefined && { minDelayMs: p.minDelayMs }),
      ...(p.maxDelayMs !== undefined && { maxDelayMs: p.maxDelayMs }),
      ...(p.jitter === false && { jitter: 0 }),
    });
  }

  return {
    baseUrl,
    async request<T>(spec: RequestSpec): Promise<T> {
      for (let retry = 0; ; retry++) {
        try {
          return (await attempt(spec)) as T;
        } catch (error) {
          if (!policy || retry >= policy.retries || !isRetryableError(error)) throw error;
          await sleep(backoff(retry, error), spec.signal);
        }
      }
    },
  };
}
