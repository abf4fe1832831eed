import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVapiClient, dataOf, type VapiClient } from './client.js';
import { isVapiApiError, isVapiNetworkError, VapiApiError, VapiNetworkError } from './errors.js';
import { DEFAULT_MAX_BODY_CHARS, retryAfterMs, type VapiClientOptions } from './transport.js';

const client = (options: VapiClientOptions) => createVapiClient({ baseUrl: 'https://api.test', ...options });
const getFile = (vapi: VapiClient, init: { signal?: AbortSignal } = {}) =>
  dataOf(vapi.GET('/file/{id}', { params: { path: { id: 'f1' } }, ...init }));
const postChat = (vapi: VapiClient) => dataOf(vapi.POST('/chat/web', { body: {} }));

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    statusText: {
      400: 'Bad Request',
      401: 'Unauthorized',
      429: 'Too Many Requests',
      503: 'Service Unavailable',
    }[status],
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A fetch that answers from a queue of responses (or errors), recording each call. */
function queued(...answers: (Response | Error)[]) {
  const calls: RequestInit[] = [];
  const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(init ?? {});
    const next = answers.shift();
    if (!next) throw new Error('no more answers queued');
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('errors', () => {
  it('throws VapiApiError with status, statusText, parsed body and a readable message', async () => {
    const body = { message: 'Invalid Key. Hot tip…', error: 'Unauthorized', statusCode: 401 };
    const r = client({ fetch: queued(json(401, body)).fetch });
    const error = await getFile(r).catch((e: unknown) => e);
    expect(isVapiApiError(error)).toBe(true);
    expect(error).toBeInstanceOf(VapiApiError);
    expect(error).toMatchObject({ status: 401, statusText: 'Unauthorized', body, retryable: false });
    expect((error as Error).message).toBe('401 Unauthorized: Invalid Key. Hot tip…');
  });

  it('joins an array message from validation failures', async () => {
    const body = { message: ['name must be a string', 'fileIds should not be empty'], error: 'Bad Request' };
    const r = client({ fetch: queued(json(400, body)).fetch });
    await expect(postChat(r)).rejects.toThrow(
      '400 Bad Request: name must be a string; fileIds should not be empty',
    );
  });

  it('keeps a non-JSON error body as text', async () => {
    const r = client({
      fetch: queued(new Response('upstream exploded', { status: 502, statusText: 'Bad Gateway' })).fetch,
    });
    const error = (await getFile(r).catch((e: unknown) => e)) as VapiApiError;
    expect(error.body).toBe('upstream exploded');
    expect(error.retryable).toBe(true);
  });

  it('throws a retryable VapiNetworkError when fetch fails', async () => {
    const r = client({ fetch: queued(new TypeError('fetch failed')).fetch });
    const error = await getFile(r).catch((e: unknown) => e);
    expect(isVapiNetworkError(error)).toBe(true);
    expect(isVapiApiError(error)).toBe(false);
    expect(error).toBeInstanceOf(VapiNetworkError);
    expect(error).toMatchObject({ retryable: true, timedOut: false });
  });

  it('turns its own timeout into a VapiNetworkError marked timedOut', async () => {
    vi.useFakeTimers();
    const fetch = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )) as typeof globalThis.fetch;
    const r = client({ fetch, timeoutMs: 5000 });
    const pending = getFile(r).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await pending).toMatchObject({ name: 'VapiNetworkError', timedOut: true });
  });

  it("rejects with the caller's abort reason, not a network error, and never retries it", async () => {
    const controller = new AbortController();
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const r = client({ fetch: fetch as typeof globalThis.fetch, retry: { retries: 3 } });
    const pending = getFile(r, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled(), { timeout: 5_000 });
    controller.abort(new Error('user left'));
    expect(await pending).toMatchObject({ message: 'user left' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('rejects at once when the signal was aborted before the request', async () => {
    const q = queued(json(200, {}));
    const r = client({ fetch: q.fetch, token: async () => 't' });
    const error = await getFile(r, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(q.calls).toHaveLength(0);
  });

  it('resolves undefined for an empty answer', async () => {
    const r = client({ fetch: queued(new Response(null, { status: 204 })).fetch });
    expect(await dataOf(r.DELETE('/file/{id}', { params: { path: { id: '1' } } }))).toBeUndefined();
  });
});

describe('answers past maxBodyChars', () => {
  it('stops reading a success past the cap and gives no data', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
      },
    });
    const r = client({ fetch: queued(new Response(endless, { status: 200 })).fetch, maxBodyChars: 5000 });
    expect(await getFile(r)).toBeUndefined();
    expect(pulled).toBeLessThan(10);
  });

  it('stops at DEFAULT_MAX_BODY_CHARS when no cap is given', async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode('x'.repeat(1024 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const r = client({ fetch: queued(new Response(endless, { status: 200 })).fetch });
    expect(await getFile(r)).toBeUndefined();
    expect(pulled * chunk.length).toBeGreaterThanOrEqual(DEFAULT_MAX_BODY_CHARS);
    expect(pulled * chunk.length).toBeLessThan(DEFAULT_MAX_BODY_CHARS + 3 * chunk.length);
  });

  it('keeps the status of an error whose body is too long, without its body', async () => {
    const r = client({ fetch: queued(json(400, { message: 'x'.repeat(100) })).fetch, maxBodyChars: 50 });
    expect(await getFile(r).catch((e: unknown) => e)).toMatchObject({ status: 400, body: undefined });
  });
});

describe('retries', () => {
  it('does not retry by default', async () => {
    const q = queued(json(429, { message: 'slow down' }, { 'retry-after': '1' }), json(200, { ok: true }));
    const r = client({ fetch: q.fetch });
    await expect(getFile(r)).rejects.toMatchObject({ status: 429 });
    expect(q.calls).toHaveLength(1);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    vi.useFakeTimers();
    const q = queued(json(429, { message: 'slow down' }, { 'retry-after': '2' }), json(200, { ok: true }));
    const r = client({ fetch: q.fetch, retry: { retries: 2, minDelayMs: 10 } });
    const pending = getFile(r);
    await vi.advanceTimersByTimeAsync(1999);
    expect(q.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: true });
    expect(q.calls).toHaveLength(2);
  });

  it('backs off exponentially on 5xx and network failures, and gives up after `retries`', async () => {
    vi.useFakeTimers();
    const q = queued(json(503, {}), new TypeError('fetch failed'), json(503, { message: 'still down' }));
    const r = client({ fetch: q.fetch, retry: { retries: 2, minDelayMs: 100, jitter: false } });
    const pending = getFile(r).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(q.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(q.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ status: 503, message: '503 Service Unavailable: still down' });
    expect(q.calls).toHaveLength(3);
  });

  it('never retries a 4xx other than 408 and 429', async () => {
    const q = queued(json(400, { message: 'bad' }), json(200, {}));
    const r = client({ fetch: q.fetch, retry: { retries: 3, minDelayMs: 1 } });
    await expect(postChat(r)).rejects.toMatchObject({
      status: 400,
    });
    expect(q.calls).toHaveLength(1);
  });

  it('caps any wait at maxDelayMs', async () => {
    vi.useFakeTimers();
    const q = queued(json(429, {}, { 'retry-after': '3600' }), json(200, { ok: 1 }));
    const r = client({ fetch: q.fetch, retry: { retries: 1, maxDelayMs: 50 } });
    const pending = getFile(r);
    await vi.advanceTimersByTimeAsync(50);
    expect(await pending).toEqual({ ok: 1 });
  });
});

describe('retryAfterMs', () => {
  const h = (init: Record<string, string>) => new Headers(init);
  it('reads seconds, HTTP dates and X-RateLimit-Reset', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(h({ 'x-ratelimit-reset': String(now / 1000 + 7) }), now)).toBe(7000);
    expect(retryAfterMs(h({}), now)).toBeUndefined();
  });
});
