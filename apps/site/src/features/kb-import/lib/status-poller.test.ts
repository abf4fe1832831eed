import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProviderApi } from '../api/provider-api';
import { providerFetch } from '../testing/fake-fetch';
import { createFakeProvider } from '../testing/fake-provider';
import { StatusPoller } from './status-poller';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(processingMs = 2_000) {
  const provider = createFakeProvider({ processingMs });
  const statuses = new Map<string, string>();
  const logs: string[] = [];
  const poller = new StatusPoller({
    getApi: () => provider.api,
    nameOf: (id) => id,
    onStatus: (id, status) => statuses.set(id, status),
    onGone: (id) => statuses.set(id, 'gone'),
    onWaiting: () => undefined,
    log: (m) => logs.push(m),
  });
  const life = new AbortController();
  poller.start(life.signal);
  return { provider, poller, statuses, logs, life };
}

async function upload(provider: ReturnType<typeof createFakeProvider>, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await provider.api.uploadFile(new File(['x'], `f${i}.md`), `f${i}.md`)).id);
  return ids;
}

describe('StatusPoller', () => {
  it('serves every processing file with one listing per round, no earlier than the schedule says', async () => {
    const { provider, poller, statuses } = setup(5_000);
    const ids = await upload(provider, 10);
    for (const id of ids) poller.track(id);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(provider.calls.filter((c) => c.startsWith('GET'))).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider.calls.filter((c) => c.startsWith('GET'))).toEqual(['GET /file']);
    // Second check after 4 s more (attempt 1): processing ends at 5 s, so this one finds them done.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(provider.calls.filter((c) => c.startsWith('GET'))).toEqual(['GET /file', 'GET /file']);
    expect([...statuses.values()].every((s) => s === 'done')).toBe(true);
    expect(poller.size).toBe(0);
  });

  it('checks each file alone when the listing fails, and stops listing when the provider refuses it', async () => {
    const { provider, poller, statuses, logs } = setup();
    const ids = await upload(provider, 3);
    for (const id of ids) poller.track(id);
    provider.failNext('list', { status: 503 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(provider.calls.filter((c) => c.startsWith('GET'))).toEqual([
      'GET /file',
      ...ids.map((id) => `GET /file/${id}`),
    ]);
    expect(statuses.size).toBe(3);
    expect(logs[0]).toMatch(/Listing files for status checks failed \(503/);

    const more = await upload(provider, 2);
    provider.calls.length = 0;
    provider.failNext('list', { status: 400 });
    for (const id of more) poller.track(id);
    await vi.advanceTimersByTimeAsync(3_000);
    const again = await upload(provider, 2);
    for (const id of again) poller.track(id);
    await vi.advanceTimersByTimeAsync(3_000);
    // After the 400 no more listings: per-file checks only.
    expect(provider.calls.filter((c) => c === 'GET /file')).toHaveLength(1);
    expect(provider.calls.filter((c) => c.startsWith('GET /file/'))).toHaveLength(4);
  });

  it('a file missing from the listing is checked alone; a 404 there means it is gone', async () => {
    const { provider, poller, statuses } = setup();
    const ids = await upload(provider, 2);
    for (const id of ids) poller.track(id);
    poller.track('file-unknown');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(provider.calls).toContain('GET /file/file-unknown');
    expect(statuses.get('file-unknown')).toBe('gone');
    expect(statuses.get(ids[0] ?? '')).toBe('done');
  });

  it('works through HTTP with a provider that requires purpose on listings', async () => {
    const provider = createFakeProvider();
    const net = providerFetch(provider.api, 'https://p.test', { purpose: 'required' });
    const api = createProviderApi({ baseUrl: 'https://p.test', getToken: () => 'sk', fetch: net.fetch });
    const statuses = new Map<string, string>();
    const poller = new StatusPoller({
      getApi: () => api,
      nameOf: (id) => id,
      onStatus: (id, s) => statuses.set(id, s),
      onGone: () => undefined,
      onWaiting: () => undefined,
      log: () => undefined,
    });
    poller.start(new AbortController().signal);
    const ids = await upload(provider, 2);
    for (const id of ids) poller.track(id);
    await vi.advanceTimersByTimeAsync(3_000);
    expect([...statuses.values()]).toEqual(['done', 'done']);
    expect(net.calls.filter((c) => c.method === 'GET').map((c) => [c.path, c.query])).toEqual([
      ['/file', { purpose: 'assistant' }],
    ]);
  });
});
