import type { Factor } from '@supabase/auth-js';
import { Loader2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import { useSupabase } from '@/lib/session';
import { authText } from '../messages';
import { passkeyFailureText, secondaryButton } from './auth-form-parts';
import { Notice, SubmitButton } from './auth-ui';

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
