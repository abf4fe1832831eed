import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberRecovery } from './password-recovery';
import { PublicConfigContext, type PublicConfig } from './public-config';
import { SessionProvider, useSession } from './session';
import { createSessionStore } from './session-store';
import { storageKeyFor } from './stored-session';

// A reset link's "choose a new password" state across a reload: the page is loaded again with the
// stored session (no auth-js event), as after F5.
const config: PublicConfig = {
  siteTitle: 'Engage',
  ownerDomain: 'engage.example',
  auth: { url: null, anonKey: 'anon-key', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
};

function storeSession(userId: string) {
  window.localStorage.setItem(
    storageKeyFor(null, window.location.origin),
    JSON.stringify({
      access_token: 'header.e30.sig',
      refresh_token: 'refresh-1',
      token_type: 'bearer',
      expires_in: 3600,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      user: {
        id: userId,
        email: 'me@example.com',
        aud: 'authenticated',
        app_metadata: {},
        user_metadata: {},
      },
    }),
  );
}

function Probe() {
  const { user, passwordRecovery } = useSession();
  return <p>{`${user?.id ?? 'nobody'} ${passwordRecovery ? 'asked for a new password' : 'not asked'}`}</p>;
}

/** The page loaded anew: the store decides from storage again. */
let store = createSessionStore();
const endPasswordRecovery = () => store.endPasswordRecovery();

function reload() {
  cleanup();
  store = createSessionStore();
  render(
    <PublicConfigContext.Provider value={config}>
      <SessionProvider value={store}>
        <Probe />
      </SessionProvider>
    </PublicConfigContext.Provider>,
  );
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('the password-recovery state', () => {
  it('survives a reload until the prompt is dismissed or the password set', () => {
    storeSession('u-1');
    rememberRecovery('u-1'); // what the PASSWORD_RECOVERY event keeps
    reload();
    expect(screen.getByText('u-1 asked for a new password')).toBeInTheDocument();
    reload();
    expect(screen.getByText('u-1 asked for a new password')).toBeInTheDocument();

    act(() => endPasswordRecovery());
    expect(screen.getByText('u-1 not asked')).toBeInTheDocument();
    reload();
    expect(screen.getByText('u-1 not asked')).toBeInTheDocument();
  });

  it("is never another account's", () => {
    storeSession('u-2');
    rememberRecovery('u-1');
    reload();
    expect(screen.getByText('u-2 not asked')).toBeInTheDocument();
  });
});
