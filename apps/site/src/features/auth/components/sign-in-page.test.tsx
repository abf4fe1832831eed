import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SessionState } from '@/lib/session';
import { testSession, withSession } from '@/testing/session';
import { nextPath, SignInPage } from './sign-in-page';

let state: Partial<SessionState> = {};
const wrapper = withSession(testSession(() => state));

function Where() {
  const { pathname } = useLocation();
  return <p>at {pathname}</p>;
}

function renderAt(url: string, tab: 'signin' | 'signup' = 'signin') {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/sign-in" element={<SignInPage tab={tab} />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    { wrapper },
  );
}

describe('SignInPage', () => {
  it('shows a visitor the auth card on the tab of the link they followed', async () => {
    state = { user: null, loading: false };
    renderAt('/sign-in', 'signup');
    expect(screen.getByRole('heading', { level: 1, name: 'Create your account' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    // One heading says what the page is for: the card's own Welcome would say something else.
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['Create your account']);
    expect(screen.queryByText('Sign in to your account or create a new one')).toBeNull();
    // The password rule is there before anybody breaks it.
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAccessibleDescription(
      'At least 6 characters, and not a commonly used password.',
    );
  });

  it('sends a signed-in user on to ?next=, a path of this site only', () => {
    state = { user: { id: 'u1' } as SessionState['user'], session: null, loading: false };
    renderAt('/sign-in?next=%2Fprofile');
    expect(screen.getByText('at /profile')).toBeInTheDocument();
  });

  it('never sends anyone to another origin', () => {
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '',
    ])
      expect(nextPath(new URLSearchParams({ next }))).toBe('/');
    expect(nextPath(new URLSearchParams({ next: '/kb-import?tab=files' }))).toBe('/kb-import?tab=files');
  });
});
