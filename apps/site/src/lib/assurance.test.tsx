import type { Session } from '@supabase/auth-js';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouteGuard } from '@/features/auth/components/route-guard';
import { authText } from '@/features/auth/messages';
import type { SessionState } from '@/lib/session';
import { testSession, withSession } from '@/testing/session';
import { clearAssuranceDemand } from './assurance';
import { watchingSession } from './engage-api';

let state: Partial<SessionState> = {};
const SessionFixture = withSession(
  testSession(() => state, {
    mfa: { listFactors: async () => ({ data: { totp: [], webauthn: [] }, error: null }) },
  }),
);
function wrapper({ children }: { children: ReactNode }) {
  return (
    <MemoryRouter>
      <SessionFixture>{children}</SessionFixture>
    </MemoryRouter>
  );
}

const jwt = (aal: string) => `x.${btoa(JSON.stringify({ aal }))}.y`;
/** A stored session that knows of no factor (issued before one was enrolled, or from elsewhere). */
const session = (aal: string) =>
  ({ access_token: jwt(aal), user: { id: 'u1', factors: [] } }) as unknown as Session;
const signedIn = (aal: string): Partial<SessionState> => ({
  loading: false,
  session: session(aal),
  user: session(aal).user,
  isAdmin: true,
});
const answer = (status: number, body: unknown) => async () => Response.json(body, { status });

describe("the server's assurance demands", () => {
  it('403 mfa_required: the guard shows the code step instead of the page until the session is aal2', async () => {
    clearAssuranceDemand();
    state = signedIn('aal1');
    const view = render(<RouteGuard>{<h1>Dashboard</h1>}</RouteGuard>, { wrapper });
    expect(screen.getByText('Dashboard')).toBeInTheDocument();
    const send = watchingSession(answer(403, { error: 'mfa_required', message: '…' }));
    // The caller still gets the answer as it came.
    await act(async () => expect((await send('/api/admin/users')).status).toBe(403));
    expect(await screen.findByRole('heading', { name: authText.mfaTitle })).toBeInTheDocument();
    expect(screen.queryByText('Dashboard')).not.toBeInTheDocument();
    // The code was entered: the session is aal2 and the page mounts again.
    state = signedIn('aal2');
    view.rerender(<RouteGuard>{<h1>Dashboard</h1>}</RouteGuard>);
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
  });

  it('403 mfa_enrollment_required: the way to the profile’s two-factor section', async () => {
    clearAssuranceDemand();
    state = signedIn('aal1');
    render(<RouteGuard>{<h1>Dashboard</h1>}</RouteGuard>, { wrapper });
    await act(async () => {
      await watchingSession(answer(403, { error: 'mfa_enrollment_required', message: '…' }))(
        '/api/admin/users',
      );
    });
    const link = await screen.findByRole('link', { name: authText.mfaEnrolLink });
    expect(link).toHaveAttribute('href', '/profile#two-factor-title');
  });

  it('other refusals are left to the page', async () => {
    clearAssuranceDemand();
    state = signedIn('aal1');
    render(<RouteGuard>{<h1>Dashboard</h1>}</RouteGuard>, { wrapper });
    await act(async () => {
      await watchingSession(answer(403, { error: 'forbidden', message: '…' }))('/api/admin/users');
      await watchingSession(answer(401, { error: 'mfa_required' }))('/api/admin/users');
      await watchingSession(async () => new Response('not json', { status: 403 }))('/api/admin/users');
    });
    expect(screen.getByText('Dashboard')).toBeInTheDocument();
  });
});
