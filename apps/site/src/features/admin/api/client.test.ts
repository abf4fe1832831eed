import { describe, expect, it } from 'vitest';
import { createEngageApi } from '@/lib/engage-api';
import { EngageApiError, createAdminApi } from './client';

const adminOver = (getAccessToken: () => Promise<string | null>, fetchImpl: typeof fetch) =>
  createAdminApi(createEngageApi({ getAccessToken, fetch: fetchImpl }));

function recordingFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? 'not json' : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

describe('createAdminApi', () => {
  it('sends the access token and the query, and reads the page', async () => {
    const { calls, fetchImpl } = recordingFetch(200, { users: [], total: 0, nextCursor: null });
    const api = adminOver(async () => 'tok', fetchImpl);
    expect(await api.listUsers({ status: 'unverified', search: '  Bob ', cursor: 'abc', limit: 10 })).toEqual(
      {
        users: [],
        total: 0,
        nextCursor: null,
      },
    );
    expect(calls[0]?.url).toBe('/api/admin/users?status=unverified&limit=10&search=Bob&cursor=abc');
    expect(new Headers(calls[0]?.init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it("turns a refusal into an EngageApiError with the server's status, code and message", async () => {
    const { fetchImpl } = recordingFetch(422, { error: 'email_exists', message: 'Taken.' });
    const api = adminOver(async () => 'tok', fetchImpl);
    await expect(api.createUser({ email: 'a@x.io', password: 'secret-pass' })).rejects.toEqual(
      new EngageApiError(422, 'email_exists', 'Taken.'),
    );
    const broken = adminOver(async () => null, recordingFetch(502, undefined).fetchImpl);
    await expect(broken.stats()).rejects.toMatchObject({ status: 502, message: 'The server answered 502.' });
  });

  it('reports an unreachable server as status 0', async () => {
    const api = adminOver(async () => 'tok', (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch);
    await expect(api.verifyUsers(['x'])).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('sets a role with PUT /users/:id/role and reads the updated row, bare or wrapped', async () => {
    const row = {
      id: 'a/b',
      email: 'op@x.io',
      created_at: '2026-01-01T00:00:00.000Z',
      email_confirmed_at: null,
      last_sign_in_at: null,
      is_admin: false,
      role: 'operator',
    };
    const bare = recordingFetch(200, row);
    expect(await adminOver(async () => 'tok', bare.fetchImpl).setRole('a/b', 'operator')).toEqual(row);
    expect(bare.calls[0]?.url).toBe('/api/admin/users/a%2Fb/role');
    expect(bare.calls[0]?.init.method).toBe('PUT');
    expect(JSON.parse(String(bare.calls[0]?.init.body))).toEqual({ role: 'operator' });
    const wrapped = recordingFetch(200, { user: row });
    expect(await adminOver(async () => 'tok', wrapped.fetchImpl).setRole('a/b', 'operator')).toEqual(row);
    const refused = recordingFetch(409, { error: 'last_admin', message: 'The last admin stays an admin.' });
    await expect(adminOver(async () => 'tok', refused.fetchImpl).setRole('x', 'user')).rejects.toEqual(
      new EngageApiError(409, 'last_admin', 'The last admin stays an admin.'),
    );
  });
});
