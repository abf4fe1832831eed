import { describe, expect, it, vi } from 'vitest';
import { endsSession, watchSessionRefusals } from './session-end';

const base = 'http://127.0.0.1:8787/auth/v1';
const getUser = { method: 'GET', url: `${base}/user` };
const refresh = { method: 'POST', url: `${base}/token?grant_type=refresh_token` };
const passwordSignIn = { method: 'POST', url: `${base}/token?grant_type=password` };

describe('endsSession: which auth answers end the stored session', () => {
  it('ends it when the account was deleted, banned, or its session or refresh token is gone', () => {
    expect(endsSession(getUser, { status: 403, code: 'user_not_found' })).toBe(true);
    expect(endsSession(getUser, { status: 403, code: 'session_not_found' })).toBe(true);
    expect(endsSession(getUser, { status: 403, code: 'user_banned' })).toBe(true);
    expect(endsSession(refresh, { status: 400, code: 'refresh_token_not_found' })).toBe(true);
    expect(endsSession(refresh, { status: 400, code: 'refresh_token_already_used' })).toBe(true);
    expect(endsSession(refresh, { status: 400, code: 'session_not_found' })).toBe(true);
    expect(endsSession(refresh, { status: 400, code: 'session_expired' })).toBe(true);
    expect(endsSession(refresh, { status: 400, code: 'user_banned' })).toBe(true);
    expect(
      endsSession({ method: 'get', url: `${base}/user/` }, { status: 403, code: 'user_not_found' }),
    ).toBe(true);
  });

  it('keeps it when offline, on a server error or a rate limit', () => {
    expect(endsSession(getUser, { status: 0, code: null })).toBe(false);
    expect(endsSession(refresh, { status: 0, code: null })).toBe(false);
    expect(endsSession(refresh, { status: 502, code: null })).toBe(false);
    expect(endsSession(refresh, { status: 503, code: 'session_not_found' })).toBe(false);
    expect(endsSession(refresh, { status: 429, code: 'over_request_rate_limit' })).toBe(false);
    expect(endsSession(getUser, { status: 200, code: null })).toBe(false);
  });

  it('keeps it for answers that do not judge the session (a bad token, an unknown code, another request)', () => {
    expect(endsSession(getUser, { status: 403, code: 'bad_jwt' })).toBe(false);
    expect(endsSession(getUser, { status: 401, code: null })).toBe(false);
    expect(endsSession(refresh, { status: 400, code: 'validation_failed' })).toBe(false);
    // A wrong password while signed in, a banned user's sign-in, an MFA step: not the stored session.
    expect(endsSession(passwordSignIn, { status: 400, code: 'user_banned' })).toBe(false);
    expect(endsSession({ method: 'PUT', url: `${base}/user` }, { status: 403, code: 'user_not_found' })).toBe(
      false,
    );
    expect(
      endsSession({ method: 'POST', url: `${base}/logout` }, { status: 403, code: 'session_not_found' }),
    ).toBe(false);
    expect(
      endsSession({ method: 'GET', url: '/api/admin/users' }, { status: 401, code: 'user_not_found' }),
    ).toBe(false);
  });
});

describe('watchSessionRefusals', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it('reports a refusal and still hands the auth client the answer, body unread', async () => {
    const onRefused = vi.fn();
    const watched = watchSessionRefusals(
      () => async () => json(403, { code: 'user_not_found', msg: 'User not found' }),
      onRefused,
    );
    const response = await watched(`${base}/user`, { method: 'GET' });
    expect(onRefused).toHaveBeenCalledOnce();
    expect(await response.json()).toEqual({ code: 'user_not_found', msg: 'User not found' });
  });

  it("reads older GoTrue's error_code, and a Request's own method", async () => {
    const onRefused = vi.fn();
    const watched = watchSessionRefusals(
      () => async () => json(400, { error_code: 'refresh_token_not_found' }),
      onRefused,
    );
    await watched(new Request(`${base}/token?grant_type=refresh_token`, { method: 'POST' }));
    expect(onRefused).toHaveBeenCalledOnce();
  });

  it('rethrows a network failure untouched and reports nothing; ignores a body that is not JSON', async () => {
    const onRefused = vi.fn();
    const offline = new TypeError('Failed to fetch');
    const failing = watchSessionRefusals(
      () => async () => {
        throw offline;
      },
      onRefused,
    );
    await expect(failing(`${base}/user`)).rejects.toBe(offline);
    const html = watchSessionRefusals(
      () => async () => new Response('<h1>Forbidden</h1>', { status: 403 }),
      onRefused,
    );
    expect((await html(`${base}/user`)).status).toBe(403);
    expect(onRefused).not.toHaveBeenCalled();
  });
});
