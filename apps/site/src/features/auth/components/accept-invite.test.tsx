import type { User } from '@supabase/auth-js';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testSession, withSession, type TestSessionState } from '@/testing/session';
import { authText } from '../messages';
import { AcceptInvite } from './accept-invite';

const auth = { updateUser: vi.fn(), verifyOtp: vi.fn() };
const session: { current: TestSessionState } = { current: {} };
const toast = vi.hoisted(() => ({ success: vi.fn() }));

const wrapper = withSession(testSession(() => session.current, auth));
vi.mock('sonner', () => ({ toast }));

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/accept-invite']}>
      <Routes>
        <Route path="/accept-invite" element={<AcceptInvite />} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>
    </MemoryRouter>,
    { wrapper },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  window.location.hash = '';
  session.current = { user: { email: 'invited@example.com' } as User, loading: false };
});

describe('AcceptInvite', () => {
  it('asks the invited user for a password twice, sets it and goes home signed in', async () => {
    auth.updateUser.mockResolvedValueOnce({
      data: {},
      error: { message: 'Password should be at least 6 characters.' },
    });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: authText.inviteTitle })).toBeInTheDocument();
    expect(screen.getByText(authText.inviteDescription('invited@example.com'))).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('New Password'), 'abc');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'abd');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.passwordsDoNotMatch);
    expect(auth.updateUser).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Confirm New Password'));
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password should be at least 6 characters.');

    auth.updateUser.mockResolvedValueOnce({ data: {}, error: null });
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(auth.updateUser).toHaveBeenLastCalledWith({ password: 'abc' });
    expect(toast.success).toHaveBeenCalledWith(authText.invitePasswordSet);
  });

  it('waits for the link to be read, then explains a used or expired link', () => {
    session.current = { user: null, loading: true };
    window.location.hash =
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired';
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your invitation');
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
    expect(window.location.hash).toBe(''); // shown: no longer in the address bar
  });

  it("without a link's session asks for the invitation mail's code, and signs in with it", async () => {
    session.current = { user: null, loading: false };
    auth.verifyOtp
      .mockResolvedValueOnce({
        data: {},
        error: { code: 'otp_expired', message: 'Token has expired or is invalid' },
      })
      .mockResolvedValueOnce({ data: {}, error: null });
    renderPage();
    expect(screen.getByText(authText.inviteCodeDescription)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText('Email'), 'invited@example.com');
    await userEvent.type(screen.getByLabelText('Six-digit code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.inviteCodeWrong);
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(auth.verifyOtp).toHaveBeenLastCalledWith({
      email: 'invited@example.com',
      token: '123456',
      type: 'invite',
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows a failed link's error beside the code field once the link has been read", async () => {
    session.current = { user: null, loading: false };
    window.location.hash =
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired';
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
    expect(screen.getByLabelText('Six-digit code')).toBeInTheDocument();
  });
});
