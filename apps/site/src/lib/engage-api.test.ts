import { afterEach, describe, expect, it, vi } from 'vitest';
import { assuranceDemandNow, clearAssuranceDemand } from './assurance';
import { createEngageApi, EngageApiError } from './engage-api';

const answer = (status: number, body: unknown) =>
  vi.fn<typeof fetch>(async () => Response.json(body, { status }));

afterEach(() => clearAssuranceDemand());

describe("Engage's API client", () => {
  it('sends the token and a JSON body, and reads the JSON answer', async () => {
    const fetch = answer(200, { ok: true });
    const api = createEngageApi({ getAccessToken: async () => 'tok', fetch });
    expect(await api.json('POST', '/api/x', { body: { a: 1 } })).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
  });

  it("turns a refusal into the server's one error shape, with the field it names", async () => {
    const api = createEngageApi({
      getAccessToken: () => null,
      fetch: answer(400, { error: 'validation_failed', message: 'Bad URI.', field: 'redirect_uris' }),
    });
    const error = await api.send('PUT', '/api/y').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngageApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Bad URI.',
      field: 'redirect_uris',
    });
  });

  it('says the server could not be reached when no answer comes, but lets an abort through', async () => {
    const offline = createEngageApi({
      getAccessToken: () => null,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(offline.send('GET', '/api/z')).rejects.toMatchObject({ status: 0, code: 'network_error' });
    const controller = new AbortController();
    controller.abort();
    const aborted = createEngageApi({
      getAccessToken: () => null,
      fetch: async () => {
        throw new DOMException('aborted', 'AbortError');
      },
    });
    await expect(aborted.send('GET', '/api/z', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('reports a 401 as a session to check, for its own routes and for requests through the proxy', async () => {
    const onSessionRefused = vi.fn();
    const api = createEngageApi({ getAccessToken: () => 't', fetch: answer(401, {}), onSessionRefused });
    await expect(api.send('GET', '/api/admin/users')).rejects.toMatchObject({ status: 401 });
    await api.fetch('/api/provider/assistant');
    expect(onSessionRefused).toHaveBeenCalledTimes(2);
  });

  it('hands a second-factor demand to the route guard', async () => {
    const api = createEngageApi({ getAccessToken: () => 't', fetch: answer(403, { error: 'mfa_required' }) });
    await expect(api.send('GET', '/api/conversations/unanswered')).rejects.toMatchObject({ status: 403 });
    expect(assuranceDemandNow()).toBe('code');
  });
});
