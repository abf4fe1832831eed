import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authText } from '../messages';
import { AuthCard } from './auth-card';
import { auth, wrapper } from './auth-card-harness';

/** Types the mailed six-digit code and presses Verify Code. */
async function enterCode(code: string) {
  await userEvent.type(screen.getByLabelText('Six-digit code'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
}

/** Fills the email and password fields (and, on the sign-up tab, the confirmation). */
async function typeCredentials(email: string, password: string, { confirm = false } = {}) {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  if (confirm) await userEvent.type(screen.getByLabelText('Confirm Password'), password);
}

describe('AuthCard', () => {
  it('emails a sign-in link and code, then signs in with the six-digit code', async () => {
    auth.signInWithOtp.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValueOnce({
      data: {},
      error: { code: 'otp_expired', message: 'Token has expired or is invalid' },
    });
    render(<AuthCard />, { wrapper });
    await userEvent.click(screen.getByRole('button', { name: authText.emailMeALink }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.emailRequired);
    expect(auth.signInWithOtp).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText('Email'), 'me@example.com ');
    await userEvent.click(screen.getByRole('button', { name: authText.emailMeALink }));
    expect(await screen.findByRole('status')).toHaveTextContent(authText.signInLinkSent('me@example.com'));
    expect(auth.signInWithOtp).toHaveBeenCalledWith({
      email: 'me@example.com',
      options: { shouldCreateUser: false, emailRedirectTo: window.location.href.split('#')[0] },
    });

    await enterCode('123456');
    // A mistyped code is called what it is, and a new one is offered.
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.codeWrongOrExpired);
    expect(screen.getByRole('button', { name: new RegExp(authText.sendNewCode) })).toBeInTheDocument();
    auth.verifyOtp.mockResolvedValueOnce({ data: {}, error: null });
    await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(auth.verifyOtp).toHaveBeenLastCalledWith({
      email: 'me@example.com',
      token: '123456',
      type: 'email',
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Back to password sign-in' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it("shows the service's refusal of a sign-in link in the red alert", async () => {
    auth.signInWithOtp.mockResolvedValue({ data: {}, error: { message: 'Signups not allowed for otp' } });
    render(<AuthCard />, { wrapper });
    await userEvent.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await userEvent.click(screen.getByRole('button', { name: authText.emailMeALink }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Signups not allowed for otp');
    expect(screen.queryByLabelText('Six-digit code')).not.toBeInTheDocument();
  });

  it('after sign-up, confirms with the mailed code instead of the link', async () => {
    auth.signUp.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard defaultTab="signup" />, { wrapper });
    await typeCredentials('new@example.com', 'secret-1', { confirm: true });
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(authText.signUpSuccess)).toBeInTheDocument();
    await enterCode('654321');
    expect(auth.verifyOtp).toHaveBeenCalledWith({
      email: 'new@example.com',
      token: '654321',
      type: 'signup',
    });
  });

  it("offers Resend to a user signing in unconfirmed, then asks for the new mail's code", async () => {
    auth.signInWithPassword.mockResolvedValue({
      error: { code: 'email_not_confirmed', message: 'Email not confirmed' },
    });
    auth.resend.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard />, { wrapper });
    await typeCredentials('late@example.com', 'secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email not confirmed');
    await userEvent.click(screen.getByRole('button', { name: authText.resendConfirmation }));
    expect(await screen.findByText(authText.confirmationResent)).toBeInTheDocument();
    expect(auth.resend).toHaveBeenCalledWith({
      type: 'signup',
      email: 'late@example.com',
      options: { emailRedirectTo: window.location.href.split('#')[0] },
    });
    await enterCode('111222');
    expect(auth.verifyOtp).toHaveBeenCalledWith({
      email: 'late@example.com',
      token: '111222',
      type: 'signup',
    });
  });

  it('counts down before the confirmation may be resent, and restarts from the wait the server names', async () => {
    // The clock is fake from the start; fireEvent (synchronous) drives the form, as user-event
    // waits on timers of its own.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const settle = () => act(async () => {});
    const seconds = async (n: number) => {
      for (let i = 0; i < n; i += 1) await act(async () => vi.advanceTimersByTime(1000));
    };
    const click = async (element: HTMLElement) => {
      fireEvent.click(element);
      await settle();
    };
    auth.signUp.mockResolvedValue({ data: {}, error: null });
    auth.resend.mockResolvedValueOnce({ data: {}, error: null }).mockResolvedValueOnce({
      data: {},
      error: {
        code: 'over_email_send_rate_limit',
        message: 'For security purposes, you can only request this after 57 seconds.',
      },
    });
    render(<AuthCard defaultTab="signup" />, { wrapper });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-1' } });
    fireEvent.change(screen.getByLabelText('Confirm Password'), { target: { value: 'secret-1' } });
    await click(screen.getByRole('button', { name: 'Sign Up' }));
    const resend = () => screen.getByRole('button', { name: /^Resend confirmation email/ });
    expect(resend()).toBeDisabled();
    expect(resend()).toHaveTextContent(authText.resendIn(authText.resendConfirmation, 60));
    await seconds(59);
    expect(resend()).toHaveTextContent(authText.resendIn(authText.resendConfirmation, 1));
    expect(resend()).toBeDisabled();
    await seconds(1);
    expect(resend()).toBeEnabled();
    expect(resend()).toHaveTextContent(authText.resendConfirmation);

    await click(resend());
    expect(screen.getByText(authText.confirmationResent)).toBeInTheDocument();
    expect(resend()).toHaveTextContent(authText.resendIn(authText.resendConfirmation, 60));
    await seconds(60);
    // Another client asked meanwhile: the server's own wait counts.
    await click(resend());
    expect(screen.getByRole('alert')).toHaveTextContent(authText.resendWait(57));
    expect(resend()).toHaveTextContent(authText.resendIn(authText.resendConfirmation, 57));
    expect(resend()).toBeDisabled();
    expect(auth.resend).toHaveBeenCalledTimes(2);
  });

  it('says a reset and a sign-in link share one wait, and counts it down on the buttons', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const settle = () => act(async () => {});
    const seconds = async (n: number) => {
      for (let i = 0; i < n; i += 1) await act(async () => vi.advanceTimersByTime(1000));
    };
    const limited = {
      data: {},
      error: {
        code: 'over_email_send_rate_limit',
        message: 'For security purposes, you can only request this after 42 seconds.',
      },
    };
    auth.resetPasswordForEmail.mockResolvedValueOnce({ data: {}, error: null }).mockResolvedValue(limited);
    auth.signInWithOtp.mockResolvedValue(limited);

    // Reset: sent; its code may be typed, and a new mail waits out the minute, counted down.
    const { unmount } = render(<AuthCard defaultTab="reset" />, { wrapper });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'joe@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    await settle();
    expect(screen.getByText(authText.resetSent)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Reset with a code' })).toBeInTheDocument();
    const again = () => screen.getByRole('button', { name: /^Send a new code/ });
    expect(again()).toBeDisabled();
    expect(again()).toHaveTextContent(authText.resendIn(authText.sendNewCode, 60));
    await seconds(60);
    expect(again()).toBeEnabled();
    unmount();

    // A sign-in link for the same address meets the reset's wait: said, and counted down.
    render(<AuthCard defaultTab="signin" />, { wrapper });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'joe@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: authText.emailMeALink }));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(authText.linkWait(42));
    const link = () => screen.getByRole('button', { name: /^Email me a sign-in link/ });
    expect(link()).toBeDisabled();
    expect(link()).toHaveTextContent(authText.resendIn(authText.emailMeALink, 42));
    await seconds(42);
    expect(link()).toBeEnabled();
    expect(link()).toHaveTextContent(authText.emailMeALink);
  });

  it("takes the reset mail's six-digit code on the Reset tab (as the link: a recovery session)", async () => {
    auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValue({ data: { session: {} }, error: null });
    render(<AuthCard defaultTab="reset" />, { wrapper });
    await userEvent.type(screen.getByLabelText('Email'), 'joe@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(authText.resetCodeHint)).toBeInTheDocument();
    await enterCode('123456');
    expect(auth.verifyOtp).toHaveBeenCalledWith({
      email: 'joe@example.com',
      token: '123456',
      type: 'recovery',
    });
    // Back leads to the Reset form again.
    await userEvent.click(screen.getByRole('button', { name: 'Back to reset' }));
    expect(screen.getByRole('form', { name: 'Reset password' })).toBeInTheDocument();
  });
});
