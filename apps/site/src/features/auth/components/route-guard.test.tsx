import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionState } from '@/lib/session';
import { testSession, withSession } from '@/testing/session';
import { authText } from '../messages';
import { RouteGuard } from './route-guard';

let state: Partial<SessionState> = {};
const wrapper = withSession(testSession(() => state));

const page = <h1>The page</h1>;

describe('RouteGuard', () => {
  it('shows a spinner while the session loads', () => {
    state = { loading: true, user: null };
    render(<RouteGuard>{page}</RouteGuard>, { wrapper });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your session');
    expect(screen.queryByText('The page')).not.toBeInTheDocument();
  });

  it('shows the Protected Resource screen with the auth card to an anonymous visitor', async () => {
    state = { loading: false, user: null };
    render(<RouteGuard>{page}</RouteGuard>, { wrapper });
    expect(screen.getByRole('heading', { name: authText.protectedTitle })).toBeInTheDocument();
    expect(screen.getByText(authText.protectedBody)).toBeInTheDocument();
    // The card is loaded on demand, only for visitors who must sign in.
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.queryByText('The page')).not.toBeInTheDocument();
  });

  it('shows the page to a signed-in user, and admin-only pages only to admins', () => {
    state = { loading: false, user: { id: 'u1' } as SessionState['user'], isAdmin: false };
    const { rerender } = render(<RouteGuard>{page}</RouteGuard>, { wrapper });
    expect(screen.getByText('The page')).toBeInTheDocument();
    rerender(<RouteGuard requireAdmin>{page}</RouteGuard>);
    expect(screen.getByRole('heading', { name: 'Administrators only' })).toBeInTheDocument();
  });
});
