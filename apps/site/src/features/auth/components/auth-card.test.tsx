import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authText } from '../messages';
import { AuthCard } from './auth-card';

const auth = {
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  resetPasswordForEmail: vi.fn(),
  signInWithOtp: vi.fn(),
  verifyOtp: vi.fn(),
  resend: vi.fn(),
  signInWithPasskey: vi.fn(),
};

vi.mock('@/lib/session', () => ({ useSupabase: () => async () => ({ auth }) }));

beforeEach(() => {
  vi.clearAllMocks();
  window.location.hash = '';
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AuthCard', () => {
  it('shows Welcome, its text and the three tabs, with required typed inputs', () => {
    render(<AuthCard />);
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.getByText(authText.description)).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Sign In', 'Sign Up', 'Reset']);
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
  });

  it('signs in with a passkey, and shows why a passkey was refused', async () => {
    auth.signInWithPasskey.mockResolvedValueOnce({
      data: null,
      error: { message: 'WebAuthn verification failed: this passkey is not registered' },
    });
    render(<AuthCard />);
    await userEvent.click(screen.getByRole('button', { name: authText.signInWithPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent('this passkey is not registered');
    auth.signInWithPasskey.mockResolvedValueOnce({
      data: null,
      error: { code: 'ERROR_CEREMONY_ABORTED', message: 'x' },
    });
    await userEvent.click(screen.getByRole('button', { name: authText.signInWithPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.passkeyCancelled);
    auth.signInWithPasskey.mockResolvedValueOnce({ data: { session: {} }, error: null });
    await userEvent.click(screen.getByRole('button', { name: authText.signInWithPasskey }));
    expect(auth.signInWithPasskey).toHaveBeenCalledTimes(3);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  describe('passkey autofill (conditional UI)', () => {
    const conditional = (available: boolean) =>
      vi.stubGlobal('PublicKeyCredential', { isConditionalMediationAvailable: async () => available });
    beforeEach(() => localStorage.setItem('engage.passkey', '1'));
    afterEach(() => {
      vi.unstubAllGlobals();
      localStorage.clear();
    });

    it('asks for a conditional passkey once the email field is focused, and the field offers passkeys', async () => {
      conditional(true);
      auth.signInWithPasskey.mockReturnValue(new Promise(() => {})); // the prompt waits for the user
      render(<AuthCard />);
      expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
      expect(auth.signInWithPasskey).not.toHaveBeenCalled(); // nothing is asked before the field is used
      fireEvent.focus(screen.getByLabelText('Email'));
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(auth.signInWithPasskey).toHaveBeenCalledTimes(1));
      expect(auth.signInWithPasskey.mock.calls[0]?.[0]).toMatchObject({
        options: { mediation: 'conditional' },
      });
    });

    it('asks nothing of the server in a browser that never used a passkey here', async () => {
      conditional(true);
      localStorage.clear();
      render(<AuthCard />);
      fireEvent.focus(screen.getByLabelText('Email'));
      await act(async () => {});
      expect(auth.signInWithPasskey).not.toHaveBeenCalled();
      // A passkey sign-in by the button marks this browser for next time.
      auth.signInWithPasskey.mockResolvedValueOnce({ data: { session: {} }, error: null });
      await userEvent.click(screen.getByRole('button', { name: authText.signInWithPasskey }));
      expect(localStorage.getItem('engage.passkey')).toBe('1');
    });

    it('is cancelled before the button starts its own ceremony', async () => {
      conditional(true);
      let signal: AbortSignal | undefined;
      auth.signInWithPasskey.mockImplementationOnce((args: { options: { signal: AbortSignal } }) => {
        signal = args.options.signal;
        return new Promise(() => {});
      });
      render(<AuthCard />);
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(signal).toBeDefined());
      expect(signal?.aborted).toBe(false);
      auth.signInWithPasskey.mockResolvedValueOnce({ data: { session: {} }, error: null });
      await userEvent.click(screen.getByRole('button', { name: authText.signInWithPasskey }));
      expect(signal?.aborted).toBe(true);
      expect(auth.signInWithPasskey.mock.calls[1]?.[0]).toBeUndefined(); // the modal ceremony
    });

    it('asks again when the challenge expired while waiting, and shows a server refusal', async () => {
      conditional(true);
      auth.signInWithPasskey
        .mockResolvedValueOnce({
          data: null,
          error: { code: 'webauthn_challenge_expired', message: 'expired' },
        })
        .mockResolvedValueOnce({ data: null, error: { message: 'this passkey is not registered' } });
      render(<AuthCard />);
      fireEvent.focus(screen.getByLabelText('Email'));
      expect(await screen.findByRole('alert')).toHaveTextContent('this passkey is not registered');
      expect(auth.signInWithPasskey).toHaveBeenCalledTimes(2);
    });

    it('stays silent when dismissed or rate-limited, and asks nothing of a browser without conditional UI', async () => {
      conditional(true);
      auth.signInWithPasskey.mockResolvedValueOnce({
        data: null,
        error: { status: 429, code: 'over_request_rate_limit', message: 'Too many requests' },
      });
      const { unmount } = render(<AuthCard />);
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(auth.signInWithPasskey).toHaveBeenCalledTimes(1));
      await act(async () => {});
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      unmount();

      vi.clearAllMocks();
      conditional(false);
      render(<AuthCard />);
      fireEvent.focus(screen.getByLabelText('Email'));
      await act(async () => {});
      expect(auth.signInWithPasskey).not.toHaveBeenCalled();
    });
  });

  it("shows the service's own message in a red alert when sign-in fails", async () => {
    auth.signInWithPassword.mockResolvedValue({ error: { message: 'Invalid login credentials' } });
    render(<AuthCard />);
    await userEvent.type(screen.getByLabelText('Email'), ' someone@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid login credentials');
    expect(auth.signInWithPassword).toHaveBeenCalledWith({
      email: 'someone@example.com',
      password: 'wrong-password',
    });
  });

  it('refuses mismatched passwords without calling the service, then signs up and says what is next', async () => {
    auth.signUp.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard defaultTab="signup" />);
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret-2');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.passwordsDoNotMatch);
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    expect(auth.signUp).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(authText.signUpSuccess)).toBeInTheDocument();
    expect(auth.signUp).toHaveBeenCalledWith({
      email: 'new@example.com',
      password: 'secret-1',
      options: { emailRedirectTo: window.location.href.split('#')[0] },
    });
  });

  it("says why a common password is refused at sign-up (GoTrue's weak_password message)", async () => {
    const message = 'Password is known to be weak and easy to guess, please choose a different one.';
    auth.signUp.mockResolvedValue({
      data: { user: null, session: null },
      error: Object.assign(new Error(message), { status: 422, code: 'weak_password', reasons: ['pwned'] }),
    });
    render(<AuthCard defaultTab="signup" />);
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(authText.signUpSuccess)).not.toBeInTheDocument();
  });

  it('asks for the address on Reset, then confirms the mail was sent', async () => {
    auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard defaultTab="reset" />);
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authText.emailRequired);
    expect(auth.resetPasswordForEmail).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Email'), 'me@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(authText.resetSent)).toBeInTheDocument();
  });

  it('explains a failed mail link from the URL fragment, then clears the fragment from the address bar', () => {
    window.history.replaceState(null, '', '/kb-import?tab=files');
    window.location.hash =
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired';
    const entries = window.history.length;
    render(<AuthCard />);
    expect(screen.getByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/kb-import?tab=files');
    expect(window.history.length).toBe(entries); // replaced, not a new entry for Back
  });

  it('shows and hides every password with a toggle button that says whether it is pressed', async () => {
    render(<AuthCard defaultTab="signup" />);
    const toggles = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggles).toHaveLength(2);
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(toggles[0]).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggles[0] as HTMLElement);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggles[0]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('type', 'password');
    await userEvent.click(toggles[0] as HTMLElement);
    expect(password).toHaveAttribute('type', 'password');
  });

  it('emails a sign-in link and code, then signs in with the six-digit code', async () => {
    auth.signInWithOtp.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValueOnce({
      data: {},
      error: { code: 'otp_expired', message: 'Token has expired or is invalid' },
    });
    render(<AuthCard />);
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

    await userEvent.type(screen.getByLabelText('Six-digit code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
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
    render(<AuthCard />);
    await userEvent.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await userEvent.click(screen.getByRole('button', { name: authText.emailMeALink }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Signups not allowed for otp');
    expect(screen.queryByLabelText('Six-digit code')).not.toBeInTheDocument();
  });

  it('after sign-up, confirms with the mailed code instead of the link', async () => {
    auth.signUp.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard defaultTab="signup" />);
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(authText.signUpSuccess)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Six-digit code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
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
    render(<AuthCard />);
    await userEvent.type(screen.getByLabelText('Email'), 'late@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email not confirmed');
    await userEvent.click(screen.getByRole('button', { name: authText.resendConfirmation }));
    expect(await screen.findByText(authText.confirmationResent)).toBeInTheDocument();
    expect(auth.resend).toHaveBeenCalledWith({
      type: 'signup',
      email: 'late@example.com',
      options: { emailRedirectTo: window.location.href.split('#')[0] },
    });
    await userEvent.type(screen.getByLabelText('Six-digit code'), '111222');
    await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
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
    render(<AuthCard defaultTab="signup" />);
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
});
