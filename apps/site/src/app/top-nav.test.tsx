import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import type { SessionState } from '@/lib/session';
import { testSession, withSession } from '@/testing/session';
import { TopNav } from './top-nav';

let state: Partial<SessionState> = {};
const wrapper = withSession(testSession(() => state));

const config: PublicConfig = {
  siteTitle: 'Engage',
  ownerDomain: 'engage.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: 'pk', serverHoldsPrivateKey: true, embedded: true },
};

function renderNav(session: Partial<SessionState> = { user: null, isAdmin: false }, at = '/') {
  state = session;
  const router = createMemoryRouter([{ path: '*', element: <TopNav /> }], { initialEntries: [at] });
  render(
    <PublicConfigContext.Provider value={config}>
      <RouterProvider router={router} />
    </PublicConfigContext.Provider>,
    { wrapper },
  );
  return router;
}

const menuButton = () => screen.getByRole('button', { name: 'Menu' });
const panel = () => document.getElementById(menuButton().getAttribute('aria-controls') ?? '') as HTMLElement;

describe('TopNav on a phone', () => {
  it('folds the links behind a Menu button that discloses the panel it controls', async () => {
    renderNav();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).toHaveClass('hidden');
    await userEvent.click(menuButton());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    expect(panel()).not.toHaveClass('hidden');
    expect(panel().querySelector('a[href="/ediscovery"]')).toHaveTextContent('Sales Engineer');
    await userEvent.click(menuButton());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('works by keyboard: Enter opens, Escape closes and gives focus back to the button', async () => {
    renderNav();
    menuButton().focus();
    await userEvent.keyboard('{Enter}');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    const links = panel().querySelectorAll('a');
    (links[0] as HTMLAnchorElement).focus();
    await userEvent.keyboard('{Escape}');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton()).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes when a link of the panel is followed', async () => {
    const router = renderNav();
    await userEvent.click(menuButton());
    const onboarding = panel().querySelector('a[href="/onboarding"]') as HTMLAnchorElement;
    await userEvent.click(onboarding);
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('lists the Admin link in the panel for admins; the avatar stays in the bar', () => {
    renderNav({ user: { id: 'u1', email: 'ada@example.com' } as SessionState['user'], isAdmin: true });
    expect(panel().querySelector('a[href="/admin"]')).not.toBeNull();
    const avatar = screen.getByRole('button', { name: 'Account menu for ada@example.com' });
    expect(panel()).not.toContainElement(avatar);
  });

  it('has no Admin link for other users', () => {
    renderNav({ user: { id: 'u2', email: 'bo@example.com' } as SessionState['user'], isAdmin: false });
    expect(document.querySelector('a[href="/admin"]')).toBeNull();
  });
});

describe('TopNav for a visitor', () => {
  const bar = () => screen.getByRole('navigation', { name: 'Main' }).firstElementChild as HTMLElement;
  const barLink = (name: string) =>
    [...bar().querySelectorAll('a')].find((a) => a.textContent === name && !panel().contains(a));

  it('offers Sign in and Sign up in the bar (wide screens) and in the phone menu', () => {
    renderNav();
    for (const [name, href] of [
      ['Sign in', '/sign-in'],
      ['Sign up', '/sign-up'],
    ] as const) {
      expect(barLink(name)).toHaveAttribute('href', href);
      expect(barLink(name)?.closest('.md\\:flex')).toHaveClass('hidden');
      expect(panel().querySelector(`a[href="${href}"]`)).toHaveTextContent(name);
    }
  });

  it('offers neither to a signed-in user, nor while the session is decided', () => {
    renderNav({ user: { id: 'u1', email: 'ada@example.com' } as SessionState['user'], isAdmin: false });
    expect(document.querySelector('a[href="/sign-in"]')).toBeNull();
    cleanup();
    renderNav({ user: null, loading: true });
    expect(document.querySelector('a[href="/sign-in"]')).toBeNull();
  });

  it('names the import link in proper case and highlights it only on its page', () => {
    renderNav();
    const kb = () => barLink('KB Import') as HTMLAnchorElement;
    const other = barLink('Sales Engineer') as HTMLAnchorElement;
    expect(kb().className).toBe(other.className);
    cleanup();
    renderNav(undefined, '/kb-import');
    expect(kb()).toHaveAttribute('aria-current', 'page');
    expect(kb().className).not.toBe((barLink('Sales Engineer') as HTMLAnchorElement).className);
  });
});

describe('TopNav: Conversations', () => {
  const user = (role?: string) =>
    ({ id: 'u1', email: 'ada@example.com', app_metadata: role ? { role } : {} }) as SessionState['user'];
  const conversationsLinks = () => document.querySelectorAll('a[href="/conversations"]');

  it('shows the link to operators and admins, in the bar and the phone panel', () => {
    for (const role of ['operator', 'admin']) {
      renderNav({ user: user(role), isAdmin: role === 'admin' });
      expect(conversationsLinks(), role).toHaveLength(2);
      cleanup();
    }
  });

  it('hides it from visitors and from signed-in users without the role', () => {
    renderNav();
    expect(conversationsLinks()).toHaveLength(0);
    cleanup();
    renderNav({ user: user(), isAdmin: false });
    expect(conversationsLinks()).toHaveLength(0);
  });
});
