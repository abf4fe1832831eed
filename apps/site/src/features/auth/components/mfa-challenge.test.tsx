import type { Session } from '@supabase/auth-js';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '@/lib/session';
import { testSession, withSession } from '@/testing/session';
import { needsSecondFactor } from '../aal';
import { authText } from '../messages';
import { RouteGuard } from './route-guard';

const auth = {
  signOut: vi.fn(),
  mfa: { listFactors: vi.fn(), challengeAndVerify: vi.fn(), webauthn: { authenticate: vi.fn() } },
};
let state: Partial<SessionState> = {};
const wrapper = withSession(testSession(() => state, auth));

const b64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
/** A session as auth-js stores it: an access token whose payload says the assurance level. */
function sessionWith(aal: 'aal1' | 'aal2', factorStatus: 'verified' | 'unverified' | null): Session {
  return {
    access_token: `${b64url({ alg: 'ES256' })}.${b64url({ sub: 'u1', aal })}.signature`,
    refresh_token: 'r',
    expires_at: 2_000_000_000,
    expires_in: 3600,
    token_type: 'bearer',
    user: {
      id: 'u1',
      email: 'me@example.com',
      factors: factorStatus
        ? [{ id: 'f1', factor_type: 'totp', status: factorStatus, created_at: '', updated_at: '' }]
        : undefined,
    },
  } as unknown as Session;
}

beforeEach(() => vi.clearAllMocks());

describe('needsSecondFactor', () => {
  it('is true only for a password-only session (aal1) of a user with a verified factor', () => {
    expect(needsSecondFactor(null)).toBe(false);
    expect(needsSecondFactor(sessionWith('aal1', null))).toBe(false);
    expect(needsSecondFactor(sessionWith('aal1', 'unverified'))).toBe(false);
    expect(needsSecondFactor(sessionWith('aal1', 'verified'))).toBe(true);
    expect(needsSecondFactor(sessionWith('aal2', 'verified'))).toBe(false);
  });
});

describe('the guard with a second factor', () => {
  it('asks for the code before the page, refuses a wrong one in the red alert, then verifies', async () => {
    const session = sessionWith('aal1', 'verified');
    state = { loading: false, session, user: session.user };
    auth.mfa.listFactors.mockResolvedValue({ data: { totp: [{ id: 'f1' }], all: [] }, error: null });
    auth.mfa.challengeAndVerify.mockResolvedValueOnce({
      data: null,
      error: { message: 'Invalid TOTP code entered' },
    });
    const { rerender } = render(<RouteGuard>{<h1>The page</h1>}</RouteGuard>, { wrapper });
    expect(await screen.findByRole('heading', { name: authText.mfaTitle })).toBeInTheDocument();
    expect(screen.queryByText('The page')).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');
    expect(auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'f1', code: '123456' });

    auth.mfa.challengeAndVerify.mockResolvedValueOnce({ data: {}, error: null });
    await userEvent.type(screen.getByLabelText('Authentication code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: 'f1', code: '654321' });
    // auth-js then reports MFA_CHALLENGE_VERIFIED with an aal2 session: the page shows.
    const raised = sessionWith('aal2', 'verified');
    state = { loading: false, session: raised, user: raised.user };
    rerender(<RouteGuard>{<h1>The page</h1>}</RouteGuard>);
    expect(screen.getByText('The page')).toBeInTheDocument();
  });

  it('lets the user sign out instead', async () => {
    const session = sessionWith('aal1', 'verified');
    state = { loading: false, session, user: session.user };
    auth.signOut.mockResolvedValue({ error: null });
    render(<RouteGuard>{<h1>The page</h1>}</RouteGuard>, { wrapper });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('offers the security key when the user has one, and says a cancelled ceremony plainly', async () => {
    const session = sessionWith('aal1', 'verified');
    state = { loading: false, session, user: session.user };
    auth.mfa.listFactors.mockResolvedValue({
      data: { totp: [], webauthn: [{ id: 'k1' }], all: [] },
      error: null,
    });
    auth.mfa.webauthn.authenticate.mockResolvedValueOnce({
      data: null,
      error: { message: 'cancelled', cause: { name: 'NotAllowedError' } },
    });
    render(<RouteGuard>{<h1>The page</h1>}</RouteGuard>, { wrapper });
    await userEvent.click(await screen.findByRole('button', { name: authText.useSecurityKey }));
    expect(auth.mfa.webauthn.authenticate).toHaveBeenCalledWith({ factorId: 'k1' });
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.passkeyCancelled);
    // No app: no code field.
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
  });
});
