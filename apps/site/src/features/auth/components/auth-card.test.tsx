import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authText } from '../messages';
import { AuthCard } from './auth-card';
import { auth, wrapper } from './auth-card-harness';

describe('AuthCard', () => {
  it('shows Welcome, its text and the three tabs, with required typed inputs', () => {
    render(<AuthCard />, { wrapper });
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
    render(<AuthCard />, { wrapper });
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
  it("shows the service's own message in a red alert when sign-in fails", async () => {
    auth.signInWithPassword.mockResolvedValue({ error: { message: 'Invalid login credentials' } });
    render(<AuthCard />, { wrapper });
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
    render(<AuthCard defaultTab="signup" />, { wrapper });
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
    render(<AuthCard defaultTab="signup" />, { wrapper });
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(authText.signUpSuccess)).not.toBeInTheDocument();
  });

  it('asks for the address on Reset, then confirms the mail was sent', async () => {
    auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    render(<AuthCard defaultTab="reset" />, { wrapper });
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
    render(<AuthCard />, { wrapper });
    expect(screen.getByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/kb-import?tab=files');
    expect(window.history.length).toBe(entries); // replaced, not a new entry for Back
  });

  it('shows and hides every password with a toggle button that says whether it is pressed', async () => {
    render(<AuthCard defaultTab="signup" />, { wrapper });
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
});
