import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { NewPasswordFields, PasswordField, useNewPassword } from '@/components/ui/credential-fields';
import { FormField } from '@/components/ui/form-field';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { errorText, FormMessage, type Outcome } from './form-message';

/**
 * The current password, then a new one twice. The server asks for the current one
 * (AUTH_PASSWORD_CHANGE_NEEDS_CURRENT: a stolen session must not be able to take the account over);
 * an account without a password yet (signed in by link or passkey) leaves it empty. When the server
 * also wants a recent sign-in (AUTH_SECURE_PASSWORD_CHANGE and a
 * session older than 24 h: 400 `reauthentication_needed`), it mails a code (GET /reauthenticate) and
 * the form asks for it, then sends the password again with the code as `nonce`.
 */
export function ChangePassword({
  email,
  supabase,
}: {
  email: string;
  supabase: () => Promise<SupabaseClient>;
}) {
  const newPassword = useNewPassword();
  const [current, setCurrent] = useState('');
  const [nonce, setNonce] = useState('');
  const [needsNonce, setNeedsNonce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [wrongCurrent, setWrongCurrent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!newPassword.matches) {
      setOutcome({ kind: 'error', text: profileText.passwordsDoNotMatch });
      return;
    }
    setBusy(true);
    setOutcome(null);
    setWrongCurrent(false);
    try {
      const { auth } = await supabase();
      const { password } = newPassword;
      const { error } = await auth.updateUser({
        password,
        ...(current && { current_password: current }),
        ...(needsNonce && { nonce: nonce.trim() }),
      });
      if (error?.code === 'reauthentication_needed') {
        const sent = await auth.reauthenticate();
        if (sent.error) throw sent.error;
        setNeedsNonce(true);
        setOutcome({ kind: 'success', text: profileText.reauthenticationSent(email) });
        return;
      }
      if (error?.code === 'current_password_required' || error?.code === 'current_password_mismatch')
        setWrongCurrent(true);
      if (error) throw error;
      newPassword.clear();
      setCurrent('');
      setNonce('');
      setNeedsNonce(false);
      setOutcome({ kind: 'success', text: profileText.passwordUpdated });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="grid gap-4" aria-labelledby="change-password-title" onSubmit={(e) => void submit(e)}>
      <h2 id="change-password-title" className="text-lg font-semibold">
        Change password
      </h2>
      <div className="grid gap-1">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required={false}
          aria-describedby="current-password-hint"
          aria-invalid={wrongCurrent || undefined}
          value={current}
          onValueChange={setCurrent}
        />
        <p id="current-password-hint" className="text-sm text-muted-foreground">
          {profileText.currentPasswordHint}
        </p>
      </div>
      <NewPasswordFields
        {...newPassword.fields}
        mismatch={outcome?.text === profileText.passwordsDoNotMatch}
      />
      {needsNonce && (
        <FormField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={nonce}
          onChange={(e) => setNonce(e.target.value)}
        />
      )}
      <FormMessage outcome={outcome} />
      <Button type="submit" disabled={busy} aria-busy={busy} className="justify-self-start">
        Update Password
      </Button>
    </form>
  );
}
