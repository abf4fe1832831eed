import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionEndedNotice } from '@/features/auth/components/session-ended-notice';
import { authText } from '@/features/auth/messages';
import { onAuthClientCreated, onSessionRefused } from './auth-client-events';
import { PublicConfigContext, type PublicConfig } from './public-config';
import { loadSupabase, SessionProvider, useSession } from './session';
import { CONFIRM_INTERVAL_MS, createSessionStore, type SiteSessionStore } from './session-store';
import { storageKeyFor } from './stored-session';
import { resetSupabaseForTests } from './supabase';

// The session store with the real auth client (auth-js); only the network is faked.
const config: PublicConfig = {
  siteTitle: 'Engage',
  ownerDomain: 'engage.example',
  auth: { url: null, anonKey: 'anon-key', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
};
const key = storageKeyFor(null, window.location.origin);
const user = {
  id: 'u-1',
  email: 'gone@example.com',
  aud: 'authenticated',
  app_metadata: {},
  user_metadata: {},
};

function storeSession(expiresIn = 3600) {
  const now = Math.floor(Date.now() / 1000);
  window.localStorage.setItem(
    key,
    JSON.stringify({
      access_token: 'header.eyJzdWIiOiJ1LTEifQ.sig',
      refresh_token: 'refresh-1',
      token_type: 'bearer',
      expires_in: 3600,
      expires_at: now + expiresIn,
      user,
    }),
  );
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function Probe() {
  const { user: current, sessionEnded } = useSession();
  return (
    <>
      <p>{current ? `signed in as ${current.email}` : 'signed out'}</p>
      <p>{sessionEnded ? 'ended' : 'not ended'}</p>
      <SessionEndedNotice />
    </>
  );
}

/** The page's store, made anew for each test (a page load). */
let store: SiteSessionStore;
const confirmSession = () => store.confirm();

const renderProbe = () =>
  render(
    <PublicConfigContext.Provider value={config}>
      <SessionProvider value={store}>
        <Probe />
      </SessionProvider>
    </PublicConfigContext.Provider>,
  );

beforeEach(() => {
  // One auth client per test: no other test's client may hear this one's events.
  vi.stubGlobal('BroadcastChannel', undefined);
  store = createSessionStore();
  onAuthClientCreated(store.connect);
  onSessionRefused(store.end);
  resetSupabaseForTests();
  window.localStorage.clear();
});

afterEach(async () => {
  vi.restoreAllMocks();
  const client = await loadSupabase(config);
  await client.auth.stopAutoRefresh();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('a session the auth service refuses', () => {
  it('signs out (no user, stored session gone) and says the session has ended, when the account was deleted', async () => {
    storeSession();
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.endsWith('/auth/v1/user')) return json(403, { code: 'user_not_found', msg: 'User not found' });
      if (url.includes('/auth/v1/logout'))
        return json(403, { code: 'user_not_found', msg: 'User not found' });
      return json(404, {});
    });
    vi.stubGlobal('fetch', fetchMock);
    renderProbe();
    expect(screen.getByText('signed in as gone@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();

    await act(() => loadSupabase(config)); // what the first input, a timer or a page's API call does

    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(authText.sessionEnded);
    await waitFor(() => expect(window.localStorage.getItem(key)).toBeNull());
    expect(screen.getByText('ended')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('signed out')).toBeInTheDocument();
  });

  it('signs out with the message when the refresh of an expiring session is refused', async () => {
    storeSession(30); // within auth-js's margin: the client loads at once and refreshes
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('grant_type=refresh_token'))
        return json(400, {
          code: 'refresh_token_not_found',
          msg: 'Invalid Refresh Token: Refresh Token Not Found',
        });
      return json(403, { code: 'session_not_found', msg: 'Session not found' });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderProbe();

    expect(await screen.findByRole('alert')).toHaveTextContent(authText.sessionEnded);
    expect(screen.getByText('signed out')).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem(key)).toBeNull());
  });

  it('keeps the user signed in, with no message, when the auth service cannot be reached', async () => {
    storeSession();
    const fetchMock = vi.fn(async (_input: RequestInfo | URL): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderProbe();

    const client = await act(() => loadSupabase(config));
    // The store's own check and this one both meet the network failure.
    const { error } = await act(() => client.auth.getUser());
    expect(error?.name).toBe('AuthRetryableFetchError');
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('/auth/v1/user'))).toBe(true);

    expect(screen.getByText('signed in as gone@example.com')).toBeInTheDocument();
    expect(screen.getByText('not ended')).toBeInTheDocument();
    expect(window.localStorage.getItem(key)).not.toBeNull();
  });

  it('is asked again, at most once a minute, when a server call was refused; the answer then ends the session', async () => {
    storeSession();
    let deleted = false;
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.endsWith('/auth/v1/user'))
        return deleted ? json(403, { code: 'user_not_found', msg: 'User not found' }) : json(200, user);
      return json(403, { code: 'user_not_found', msg: 'User not found' });
    });
    vi.stubGlobal('fetch', fetchMock);
    const userChecks = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/auth/v1/user')).length;
    renderProbe();
    await act(() => loadSupabase(config));
    await waitFor(() => expect(userChecks()).toBe(1));

    deleted = true;
    confirmSession(); // within the minute: not asked again
    expect(userChecks()).toBe(1);
    expect(screen.getByText('signed in as gone@example.com')).toBeInTheDocument();

    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + CONFIRM_INTERVAL_MS);
    act(() => confirmSession());
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.sessionEnded);
    expect(userChecks()).toBe(2);
    expect(screen.getByText('signed out')).toBeInTheDocument();
  });
});
