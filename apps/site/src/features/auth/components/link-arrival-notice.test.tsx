import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissLinkArrival } from '@/lib/link-arrival';
import type { SessionState } from '@/lib/session';
import { takeSessionFromUrl } from '@/lib/url-session';
import { testSession, withSession } from '@/testing/session';
import { authText } from '../messages';
import { LinkArrivalNotice } from './link-arrival-notice';

let state: Partial<SessionState> = {};
const wrapper = withSession(testSession(() => state));

const signedIn = { user: { id: 'u1' } as SessionState['user'] };
const arrive = (type: string) =>
  act(() => {
    takeSessionFromUrl({ access_token: 'at', refresh_token: 'rt', type });
  });

afterEach(() => {
  act(() => dismissLinkArrival());
  window.history.replaceState(null, '', '/');
});

describe('what a mail link did, said where it lands', () => {
  it("says the address is confirmed after a sign-up's confirmation link, until dismissed", async () => {
    state = signedIn;
    render(<LinkArrivalNotice />, { wrapper });
    expect(screen.queryByRole('status')).toBeNull();
    arrive('signup');
    expect(screen.getByRole('status')).toHaveTextContent(authText.emailConfirmed);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing for the other links (magic link, recovery, invitation)', () => {
    state = signedIn;
    render(<LinkArrivalNotice />, { wrapper });
    for (const type of ['magiclink', 'recovery', 'invite']) arrive(type);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing once signed out: "you are signed in" would be untrue', () => {
    state = { user: null };
    render(<LinkArrivalNotice />, { wrapper });
    arrive('signup');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
