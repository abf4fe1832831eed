import { describe, expect, it } from 'vitest';
import { providerFetch } from '../testing/fake-fetch';
import { createFakeProvider } from '../testing/fake-provider';
import { createProviderApi, FILE_PURPOSE } from './provider-api';

const BASE = 'https://provider.test';

function setup(purpose: 'required' | 'ignored') {
  const provider = createFakeProvider();
  const net = providerFetch(provider.api, BASE, { purpose });
  const api = createProviderApi({ baseUrl: BASE, getToken: () => 'sk-private', fetch: net.fetch });
  return { provider, net, api };
}

describe('purpose', () => {
  it.each(['required', 'ignored'] as const)(
    'lists and uploads with purpose=%s handling on the provider side',
    async (mode) => {
      const { api, net } = setup(mode);
      const uploaded = await api.uploadFile(new File(['# FAQ'], 'faq.md'), 'faq.md');
      const list = await api.listFiles();
      expect(list.map((f) => f.id)).toEqual([uploaded.id]);
      const upload = net.calls.find((c) => c.method === 'POST' && c.path === '/file');
      expect((upload?.body as FormData).get('purpose')).toBe(FILE_PURPOSE);
      const listing = net.calls.find((c) => c.method === 'GET' && c.path === '/file');
      expect(listing?.query).toEqual({ purpose: 'assistant' });
    },
  );

  it('a provider requiring purpose refuses a listing without it (what the tool used to send)', async () => {
    const { net } = setup('required');
    const res = await net.fetch(`${BASE}/file`, { headers: { Authorization: 'Bearer sk-private' } });
    expect(res.status).toBe(400);
  });
});
