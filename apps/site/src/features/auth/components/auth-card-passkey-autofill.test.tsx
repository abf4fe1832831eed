import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authText } from '../messages';
import { AuthCard } from './auth-card';
import { auth, wrapper } from './auth-card-harness';

describe('AuthCard', () => {
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
      render(<AuthCard />, { wrapper });
      expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
      expect(auth.signInWithPasskey).not.toHaveBeenCalled(); // nothing is asked before the field is used
      fireEvent.focus(screen.getByLabelText('Email'));
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(auth.signInWithPasskey).toHaveBeenCalledTimes(1), { timeout: 5_000 });
      expect(auth.signInWithPasskey.mock.calls[0]?.[0]).toMatchObject({
        options: { mediation: 'conditional' },
      });
    });

    it('asks nothing of the server in a browser that never used a passkey here', async () => {
      conditional(true);
      localStorage.clear();
      render(<AuthCard />, { wrapper });
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
      render(<AuthCard />, { wrapper });
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(signal).toBeDefined(), { timeout: 5_000 });
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
      render(<AuthCard />, { wrapper });
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
      const { unmount } = render(<AuthCard />, { wrapper });
      fireEvent.focus(screen.getByLabelText('Email'));
      await vi.waitFor(() => expect(auth.signInWithPasskey).toHaveBeenCalledTimes(1), { timeout: 5_000 });
      await act(async () => {});
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      unmount();

      vi.clearAllMocks();
      conditional(false);
      render(<AuthCard />, { wrapper });
      fireEvent.focus(screen.getByLabelText('Email'));
      await act(async () => {});
      expect(auth.signInWithPasskey).not.toHaveBeenCalled();
    });
  });
});
