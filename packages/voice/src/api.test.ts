import { describe, expect, it, vi } from 'vitest';
import { loadClient, webCallCreator } from './api';

// The REST client is loaded on the first start; a load that failed (the chunk did not arrive) must
// not fail every later start too.

describe('webCallCreator', () => {
  it('loads the client again after a failed load, and keeps it once loaded', async () => {
    const calls: string[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new URL(new Request(input, init).url).pathname);
      return new Response(JSON.stringify({ id: 'call-1' }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    });
    let attempts = 0;
    const load = vi.fn((options: Parameters<typeof loadClient>[0]) => {
      attempts += 1;
      return attempts === 1
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : loadClient(options);
    });
    const create = webCallCreator({ baseUrl: 'https://api.example', token: 'pk', fetch }, load);
    const signal = new AbortController().signal;
    await expect(create({ assistantId: 'a' }, { signal })).rejects.toThrow('dynamically imported');
    await expect(create({ assistantId: 'a' }, { signal })).resolves.toMatchObject({ id: 'call-1' });
    await create({ assistantId: 'a' }, { signal });
    expect(load).toHaveBeenCalledTimes(2);
    expect(calls).toEqual(['/call/web', '/call/web']);
  });
});
