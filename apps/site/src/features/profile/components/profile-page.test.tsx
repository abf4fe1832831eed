import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedIn, testSession, withSession } from '@/testing/session';
import { profileText } from '../messages';
import { ProfilePage } from './profile-page';

const auth = {
  getSession: vi.fn(async () => ({ data: { session: { access_token: 'the-token' } } })),
  signOut: vi.fn(async () => ({ error: null })),
  updateUser: vi.fn(),
  verifyOtp: vi.fn(),
  reauthenticate: vi.fn(),
  mfa: { listFactors: vi.fn(), enroll: vi.fn(), challengeAndVerify: vi.fn(), unenroll: vi.fn() },
};
const wrapper = withSession(testSession(signedIn({ id: 'u1', email: 'me@example.com' }), auth));

const verifiedFactor = { id: 'f1', factor_type: 'totp', status: 'verified', friendly_name: '' };
const factors = (all: object[]) => ({
  data: { all, totp: all.filter((f) => (f as { status: string }).status === 'verified'), phone: [] },
  error: null,
});
const section = (name: string) =>
  screen.getByRole('heading', { level: 2, name }).closest('form, section') as HTMLElement;

beforeEach(() => {
  vi.clearAllMocks();
  window.location.hash = '';
  auth.mfa.listFactors.mockResolvedValue(factors([]));
});

afterEach(() => vi.unstubAllGlobals());

describe('ProfilePage', () => {
  it('deletes the account only after its address is typed again, then signs out; a refusal is said', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        Response.json(
          { error: 'last_admin', message: 'At least one administrator must remain.' },
          { status: 409 },
        ),
      )
      .mockResolvedValueOnce(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    render(<ProfilePage />, { wrapper });
    const section = screen.getByRole('region', { name: 'Delete my account' });
    await userEvent.click(within(section).getByRole('button', { name: 'Delete my account' }));
    const field = within(section).getByLabelText(profileText.deleteConfirmLabel('me@example.com'));
    expect(field).toHaveFocus();
    const confirm = within(section).getByRole('button', { name: 'Delete my account for good' });
    await userEvent.type(field, 'someone@example.com');
    await userEvent.click(confirm);
    expect(await within(section).findByRole('alert')).toHaveTextContent(profileText.deleteConfirmMismatch);
    expect(fetch).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, 'ME@example.com');
    await userEvent.click(confirm);
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'At least one administrator must remain.',
    );
    expect(fetch).toHaveBeenCalledWith('/api/account', {
      method: 'DELETE',
      headers: { Authorization: 'Bearer the-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ME@example.com' }),
    });
    expect(auth.signOut).not.toHaveBeenCalled();

    await userEvent.click(confirm);
    await vi.waitFor(() => expect(auth.signOut).toHaveBeenCalledWith({ scope: 'local' }), { timeout: 5_000 });
  });

  it('Cancel folds the confirmation and gives the focus back to its button', async () => {
    render(<ProfilePage />, { wrapper });
    const section = screen.getByRole('region', { name: 'Delete my account' });
    await userEvent.click(within(section).getByRole('button', { name: 'Delete my account' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Cancel' }));
    const opener = within(section).getByRole('button', { name: 'Delete my account' });
    await vi.waitFor(() => expect(opener).toHaveFocus(), { timeout: 5_000 });
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('shows the email and changes the password', async () => {
    auth.updateUser.mockResolvedValue({ data: {}, error: null });
    render(<ProfilePage />, { wrapper });
    expect(screen.getByTestId('profile-page-email')).toHaveTextContent('me@example.com');
    const form = section('Change password');
    await userEvent.type(within(form).getByLabelText('New Password'), 'new secret 1');
    await userEvent.type(within(form).getByLabelText('Confirm New Password'), 'new secret 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(profileText.passwordsDoNotMatch);
    expect(auth.updateUser).not.toHaveBeenCalled();
    await userEvent.clear(within(form).getByLabelText('Confirm New Password'));
    await userEvent.type(within(form).getByLabelText('Confirm New Password'), 'new secret 1');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(profileText.passwordUpdated);
    expect(auth.updateUser).toHaveBeenCalledWith({ password: 'new secret 1' });
  });

  it('sends the current password with the new one, and marks it when the server says it is wrong', async () => {
    auth.updateUser
      .mockResolvedValueOnce({
        data: {},
        error: { code: 'current_password_mismatch', message: 'Your current password is not right.' },
      })
      .mockResolvedValueOnce({ data: {}, error: null });
    render(<ProfilePage />, { wrapper });
    const form = section('Change password');
    const current = within(form).getByLabelText('Current password');
    expect(current).toHaveAttribute('autocomplete', 'current-password');
    expect(current).toHaveAccessibleDescription(profileText.currentPasswordHint);
    await userEvent.type(current, 'old secret');
    await userEvent.type(within(form).getByLabelText('New Password'), 'new secret 1');
    await userEvent.type(within(form).getByLabelText('Confirm New Password'), 'new secret 1');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Your current password is not right.');
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(auth.updateUser).toHaveBeenCalledWith({
      password: 'new secret 1',
      current_password: 'old secret',
    });
    await userEvent.clear(current);
    await userEvent.type(current, 'right secret');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(profileText.passwordUpdated);
    expect(auth.updateUser).toHaveBeenLastCalledWith({
      password: 'new secret 1',
      current_password: 'right secret',
    });
    expect(current).toHaveValue('');
    expect(current).not.toHaveAttribute('aria-invalid');
  });

  it('asks for the mailed code when the server wants reauthentication, then retries with it as nonce', async () => {
    auth.updateUser
      .mockResolvedValueOnce({
        data: {},
        error: { code: 'reauthentication_needed', message: 'Password update requires reauthentication' },
      })
      .mockResolvedValueOnce({
        data: {},
        error: { code: 'reauthentication_not_valid', message: 'Invalid nonce' },
      })
      .mockResolvedValueOnce({ data: {}, error: null });
    auth.reauthenticate.mockResolvedValue({ data: {}, error: null });
    render(<ProfilePage />, { wrapper });
    const form = section('Change password');
    await userEvent.type(within(form).getByLabelText('New Password'), 'new secret');
    await userEvent.type(within(form).getByLabelText('Confirm New Password'), 'new secret');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(
      profileText.reauthenticationSent('me@example.com'),
    );
    expect(auth.reauthenticate).toHaveBeenCalledTimes(1);

    await userEvent.type(within(form).getByLabelText('Verification code'), '111111');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Invalid nonce');
    await userEvent.clear(within(form).getByLabelText('Verification code'));
    await userEvent.type(within(form).getByLabelText('Verification code'), '222222');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(profileText.passwordUpdated);
    expect(auth.updateUser).toHaveBeenLastCalledWith({ password: 'new secret', nonce: '222222' });
    expect(within(form).queryByLabelText('Verification code')).not.toBeInTheDocument();
  });

  it('changes the email and says a confirmation went to both addresses', async () => {
    auth.updateUser.mockResolvedValueOnce({
      data: {},
      error: { message: 'A user with this email address has already been registered' },
    });
    render(<ProfilePage />, { wrapper });
    const form = section('Change email');
    await userEvent.type(within(form).getByLabelText('New email'), 'taken@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Email' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('already been registered');

    auth.updateUser.mockResolvedValueOnce({ data: {}, error: null });
    await userEvent.clear(within(form).getByLabelText('New email'));
    await userEvent.type(within(form).getByLabelText('New email'), 'next@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Email' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(
      profileText.emailChangeSent('me@example.com', 'next@example.com'),
    );
    expect(auth.updateUser).toHaveBeenLastCalledWith(
      { email: 'next@example.com' },
      { emailRedirectTo: window.location.href.split('#')[0] },
    );
  });

  it('refuses the current address, in any case, without asking the server', async () => {
    render(<ProfilePage />, { wrapper });
    const form = section('Change email');
    await userEvent.type(within(form).getByLabelText('New email'), ' ME@example.com ');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Email' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(profileText.emailUnchanged);
    expect(within(form).queryByRole('status')).not.toBeInTheDocument();
    expect(auth.updateUser).not.toHaveBeenCalled();
  });

  it("confirms an email change with the two mails' codes, each checked against its own address", async () => {
    auth.updateUser.mockResolvedValue({ data: {}, error: null });
    auth.verifyOtp
      .mockResolvedValueOnce({
        data: { user: null, session: null },
        error: { code: 'otp_expired', message: 'Token has expired or is invalid' },
      })
      .mockResolvedValueOnce({ data: { user: null, session: null }, error: null })
      .mockResolvedValueOnce({ data: { user: {}, session: { access_token: 't' } }, error: null });
    render(<ProfilePage />, { wrapper });
    await userEvent.type(screen.getByLabelText('New email'), 'next@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Change Email' }));
    const codes = await screen.findByRole('form', { name: 'Confirm the change with codes' });
    await userEvent.type(within(codes).getByLabelText('Code from the mail to me@example.com'), '111111');
    await userEvent.click(within(codes).getByRole('button', { name: 'Confirm Change' }));
    expect(await within(codes).findByRole('alert')).toHaveTextContent(
      profileText.emailChangeCodeWrong('me@example.com'),
    );
    await userEvent.click(within(codes).getByRole('button', { name: 'Confirm Change' }));
    expect(await within(codes).findByRole('status')).toHaveTextContent(
      profileText.emailChangeHalf('next@example.com'),
    );
    expect(within(codes).getByText(profileText.emailChangeConfirmed('me@example.com'))).toBeInTheDocument();
    await userEvent.type(within(codes).getByLabelText('Code from the mail to next@example.com'), '222222');
    await userEvent.click(within(codes).getByRole('button', { name: 'Confirm Change' }));
    expect(await within(codes).findByText(profileText.emailChanged('next@example.com'))).toBeInTheDocument();
    expect(auth.verifyOtp.mock.calls.map(([args]) => args)).toEqual([
      { email: 'me@example.com', token: '111111', type: 'email_change' },
      { email: 'me@example.com', token: '111111', type: 'email_change' },
      { email: 'next@example.com', token: '222222', type: 'email_change' },
    ]);
  });

  it("shows an email-change link's message that came back in the fragment", () => {
    window.location.hash =
      '#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email';
    render(<ProfilePage />, { wrapper });
    expect(screen.getByRole('status')).toHaveTextContent('Confirmation link accepted');
  });

  it('enrols TOTP with the QR code and the key, verifies it with a code, lists it', async () => {
    auth.mfa.listFactors
      .mockResolvedValueOnce(factors([{ id: 'old', status: 'unverified' }]))
      .mockResolvedValue(factors([verifiedFactor]));
    auth.mfa.unenroll.mockResolvedValue({ data: {}, error: null });
    auth.mfa.enroll.mockResolvedValue({
      data: {
        id: 'f1',
        type: 'totp',
        totp: {
          // As auth-js hands it over: GoTrue's SVG after a data: prefix, unencoded.
          qr_code: 'data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg" fill="#ffffff"></svg>',
          secret: 'JBSWY3DPEHPK3PXP',
          uri: '',
        },
      },
      error: null,
    });
    auth.mfa.challengeAndVerify
      .mockResolvedValueOnce({ data: null, error: { message: 'Invalid TOTP code entered' } })
      .mockResolvedValueOnce({ data: {}, error: null });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ProfilePage />, { wrapper });
    const twoFactor = section('Two-factor authentication');
    expect(await within(twoFactor).findByText(profileText.noFactors)).toBeInTheDocument();

    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Set up an authenticator app' }));
    const qr = await within(twoFactor).findByRole('img', {
      name: 'QR code to scan with your authenticator app',
    });
    expect(qr).toHaveAttribute(
      'src',
      'data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%20fill%3D%22%23ffffff%22%3E%3C%2Fsvg%3E',
    );
    // The list the page loaded on opening already named the leftover: it is not loaded again.
    expect(auth.mfa.listFactors).toHaveBeenCalledTimes(1);
    // The unverified leftover of an earlier attempt is removed first.
    expect(auth.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'old' });
    expect(auth.mfa.enroll).toHaveBeenCalledWith({ factorType: 'totp' });
    expect(within(twoFactor).getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith('JBSWY3DPEHPK3PXP');
    expect(await within(twoFactor).findByText(profileText.copied)).toBeInTheDocument();

    await userEvent.type(within(twoFactor).getByLabelText('Authentication code'), '000000');
    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Verify and turn on' }));
    expect(await within(twoFactor).findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');
    await userEvent.type(within(twoFactor).getByLabelText('Authentication code'), '123456');
    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Verify and turn on' }));
    expect(await within(twoFactor).findByText(profileText.totpOn)).toBeInTheDocument();
    expect(auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: 'f1', code: '123456' });
    expect(within(twoFactor).getByRole('list', { name: 'Second factors' })).toHaveTextContent(
      'Authenticator app',
    );
  });

  it('removes a verified factor only after confirming', async () => {
    auth.mfa.listFactors.mockResolvedValueOnce(factors([verifiedFactor])).mockResolvedValue(factors([]));
    auth.mfa.unenroll.mockResolvedValue({ data: {}, error: null });
    render(<ProfilePage />, { wrapper });
    const twoFactor = section('Two-factor authentication');
    await userEvent.click(await within(twoFactor).findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this authenticator app?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(auth.mfa.unenroll).not.toHaveBeenCalled();

    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Remove' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    expect(await within(twoFactor).findByText(profileText.totpRemoved)).toBeInTheDocument();
    expect(auth.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'f1' });
    expect(within(twoFactor).getByText(profileText.noFactors)).toBeInTheDocument();
  });
  it('says so when the browser refuses to copy the key, which stays on the page', async () => {
    auth.mfa.listFactors.mockResolvedValue(factors([]));
    auth.mfa.enroll.mockResolvedValue({
      data: { id: 'f1', type: 'totp', totp: { qr_code: '<svg/>', secret: 'JBSWY3DPEHPK3PXP', uri: '' } },
      error: null,
    });
    const writeText = vi
      .fn()
      .mockRejectedValue(new DOMException('Write permission denied.', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ProfilePage />, { wrapper });
    const twoFactor = section('Two-factor authentication');
    await userEvent.click(
      await within(twoFactor).findByRole('button', { name: 'Set up an authenticator app' }),
    );
    await userEvent.click(await within(twoFactor).findByRole('button', { name: 'Copy key' }));
    expect(await within(twoFactor).findByText(profileText.copyFailed)).toBeInTheDocument();
    expect(within(twoFactor).queryByText(profileText.copied)).not.toBeInTheDocument();
    expect(within(twoFactor).getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
  });

  it("shows the server's refusal to remove a factor, and keeps listing it", async () => {
    auth.mfa.listFactors.mockResolvedValue(factors([verifiedFactor]));
    auth.mfa.unenroll.mockResolvedValue({
      data: null,
      error: { code: 'insufficient_aal', message: 'AAL2 required to unenroll verified factor' },
    });
    render(<ProfilePage />, { wrapper });
    const twoFactor = section('Two-factor authentication');
    await userEvent.click(await within(twoFactor).findByRole('button', { name: 'Remove' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    expect(await within(twoFactor).findByRole('alert')).toHaveTextContent('AAL2 required');
    expect(within(twoFactor).queryByText(profileText.totpRemoved)).not.toBeInTheDocument();
    expect(within(twoFactor).getByRole('list', { name: 'Second factors' })).toBeInTheDocument();
  });

  it('keeps the enrolment on screen when cancelling it is refused', async () => {
    auth.mfa.listFactors.mockResolvedValue(factors([]));
    auth.mfa.enroll.mockResolvedValue({
      data: { id: 'f1', type: 'totp', totp: { qr_code: '<svg/>', secret: 'JBSWY3DPEHPK3PXP', uri: '' } },
      error: null,
    });
    auth.mfa.unenroll.mockResolvedValue({ data: null, error: { message: 'Request rate limit reached' } });
    render(<ProfilePage />, { wrapper });
    const twoFactor = section('Two-factor authentication');
    await userEvent.click(
      await within(twoFactor).findByRole('button', { name: 'Set up an authenticator app' }),
    );
    await userEvent.click(await within(twoFactor).findByRole('button', { name: 'Cancel' }));
    expect(await within(twoFactor).findByRole('alert')).toHaveTextContent('Request rate limit reached');
    expect(within(twoFactor).getByTestId('totp-secret')).toBeInTheDocument();
  });
});
