import type { Factor } from '@supabase/auth-js';
import { Loader2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import { recoveryCodesOffered, redeemRecoveryCode } from '@/lib/recovery-codes';
import { useSupabase } from '@/lib/session';
import { authText } from '../messages';
import { passkeyFailureText, secondaryButton } from './auth-form-parts';
import { Notice, SubmitButton } from './auth-ui';

/**
 * A recovery code instead of the authenticator (the embedded auth's): folded until asked for, then
 * a field of its own. A good code raises the session as the authenticator would.
 */
function RecoveryCodeStep() {
  const supabase = useSupabase();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const use = async () => {
    if (!code.trim()) return setError(authText.recoveryCodeRequired);
    setBusy(true);
    setError(null);
    try {
      await redeemRecoveryCode((await supabase()).auth, code.trim());
    } catch (thrown) {
      setError((thrown as Error).message);
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <button type="button" className={secondaryButton} onClick={() => setOpen(true)}>
        {authText.useRecoveryCode}
      </button>
    );
  return (
    <div className="grid gap-2 rounded-md border border-border p-3">
      <label htmlFor="recovery-code" className="text-sm font-medium">
        Recovery code
      </label>
      <input
        id="recovery-code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={(e) => {
          // Its own Enter: the form around it sends the authenticator's code.
          if (e.key === 'Enter') {
            e.preventDefault();
            void use();
          }
        }}
        className="h-9 rounded-md border border-border bg-background px-3 font-mono text-base md:text-sm"
        aria-describedby="recovery-code-help"
        aria-invalid={error ? true : undefined}
      />
      <p id="recovery-code-help" className="text-xs text-muted-foreground">
        {authText.recoveryCodeHelp}
      </p>
      <div aria-live="assertive">{error && <Notice kind="error">{error}</Notice>}</div>
      <button type="button" className={secondaryButton} disabled={busy} onClick={() => void use()}>
        {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
        Use this recovery code
      </button>
    </div>
  );
}

/**
 * The second sign-in step: the user has a verified authenticator app or security key and signed in
 * with a password or passkey (aal1), so the guard shows this instead of the page until a code from
 * the app or the key raises the session to aal2 (auth-js then reports MFA_CHALLENGE_VERIFIED and
 * the guard shows the page).
 */
export function MfaChallenge() {
  const supabase = useSupabase();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The user's verified factors by kind, once read: the form offers what they have. */
  const [factors, setFactors] = useState<{ totp: Factor[]; webauthn: Factor[] } | null>(null);

  useEffect(() => {
    let live = true;
    void supabase()
      .then(({ auth }) => auth.mfa.listFactors())
      .then((result) => {
        const data = result?.data;
        if (live && data) setFactors({ totp: data.totp ?? [], webauthn: data.webauthn ?? [] });
      })
      // Unreadable factors leave the code form as it is; submitting it reports the failure.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [supabase]);

  const verifyWithKey = async () => {
    const factor = factors?.webauthn[0];
    if (!factor) return;
    setBusy(true);
    setError(null);
    try {
      const { auth } = await supabase();
      const { error: keyError } = await auth.mfa.webauthn.authenticate({ factorId: factor.id });
      if (keyError) setError(passkeyFailureText(keyError));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { auth } = await supabase();
      const { data, error: listError } = await auth.mfa.listFactors();
      if (listError) throw listError;
      const factor = data.totp[0];
      if (!factor) throw new Error(authText.mfaNoFactor);
      const { error: verifyError } = await auth.mfa.challengeAndVerify({
        factorId: factor.id,
        code: code.trim(),
      });
      if (verifyError) throw verifyError;
    } catch (thrown) {
      setError((thrown as Error).message || 'Something went wrong. Please try again.');
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  const signOut = async () => {
    await (await supabase()).auth.signOut();
  };

  return (
    <main
      className="relative flex min-h-[calc(100dvh-3.5rem)] items-center justify-center bg-slate-100 bg-cover bg-center px-4 py-12"
      style={{ backgroundImage: 'url(/auth-bg.svg)' }}
    >
      <section className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-border bg-white/95 py-6 shadow-sm backdrop-blur">
        <div className="flex flex-col gap-1.5 px-6">
          <h1 className="text-xl leading-tight font-semibold">{authText.mfaTitle}</h1>
          <p className="text-sm text-muted-foreground">
            {factors?.webauthn.length ? authText.mfaKeyDescription : authText.mfaDescription}
          </p>
        </div>
        <form className="grid gap-4 px-6" aria-label={authText.mfaTitle} onSubmit={(e) => void submit(e)}>
          {factors?.webauthn.length ? (
            <button
              type="button"
              className={secondaryButton}
              disabled={busy}
              onClick={() => void verifyWithKey()}
            >
              {authText.useSecurityKey}
            </button>
          ) : null}
          {factors?.webauthn.length && !factors.totp.length ? (
            <div aria-live="assertive">{error && <Notice kind="error">{error}</Notice>}</div>
          ) : (
            <>
              <OneTimeCodeField label="Authentication code" value={code} onValueChange={setCode} />
              <div aria-live="assertive">{error && <Notice kind="error">{error}</Notice>}</div>
              <SubmitButton busy={busy}>
                {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
                Verify
              </SubmitButton>
            </>
          )}
          {recoveryCodesOffered() && <RecoveryCodeStep />}
          <button
            type="button"
            onClick={() => void signOut()}
            className="text-sm text-slate-700 underline underline-offset-4 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            Sign out
          </button>
        </form>
      </section>
    </main>
  );
}
