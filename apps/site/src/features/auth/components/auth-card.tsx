import { useCallback, useState, type FormEvent } from 'react';
import { EmailField, PasswordField } from '@/components/ui/credential-fields';
import { useClearLinkResult } from '@/lib/link-result';
import { rememberPasskey } from '@/lib/passkey-hint';
import { useSupabase } from '@/lib/session';
import type { SupabaseClient } from '@/lib/supabase';
import { authText } from '../messages';
import {
  currentPage,
  failureText,
  Message,
  passkeyFailureText,
  run,
  secondaryButton,
  Submit,
  type AuthFailure,
  type Outcome,
} from './auth-form-parts';
import { Tabs } from './auth-ui';
import { CodeForm } from './code-form';
import { MAIL_INTERVAL_SECONDS, ResendButton, useCountdown, waitFrom } from './resend-button';
import { resendConfirmation, SignUpForm } from './sign-up-form';
import { usePasskeyAutofill } from './use-passkey-autofill';

export type AuthTab = 'signin' | 'signup' | 'reset';

/**
 * A mail link that failed (used or expired) lands here with GoTrue's error in the fragment; the
 * sign-in form shows it so the user knows why they are not signed in.
 */
function linkError(): Outcome {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const description = params.get('error_description');
  return description ? { kind: 'error', text: description } : null;
}

/** Sends a sign-in link and code (sign-in only: a new account goes through Sign Up, which tells the admin). */
async function sendSignInLink(
  supabase: () => Promise<SupabaseClient>,
  email: string,
): Promise<AuthFailure | null> {
  const { error } = await (
    await supabase()
  ).auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: currentPage() } });
  return error;
}

/** The mail whose code the form asks for: a sign-in link's, or the sign-up confirmation's. */
type CodeStep = { email: string; type: 'email' | 'signup' };

function SignInForm({ supabase, shell }: { supabase: () => Promise<SupabaseClient>; shell: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // In the prerendered shell the markup is everybody's: no mail link's error (and no window at build).
  const [outcome, setOutcome] = useState<Outcome>(() => (shell ? null : linkError()));
  useClearLinkResult(!shell); // shown from state now: the fragment leaves the address bar
  const [codeStep, setCodeStep] = useState<CodeStep | null>(null);
  const linkWait = useCountdown(0);
  /** The address the service called unconfirmed (after the password checked out): it may resend. */
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    setUnconfirmed(null);
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.signInWithPassword({ email: address, password });
      if (error?.code === 'email_not_confirmed') setUnconfirmed(address);
      return error ? { kind: 'error', text: failureText(error) } : null;
    });
  };
  const sendLink = () => {
    const address = email.trim();
    if (!address) {
      setOutcome({ kind: 'error', text: authText.emailRequired });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      const error = await sendSignInLink(supabase, address);
      const wait = error && waitFrom(error);
      if (wait) {
        linkWait.start(wait);
        return { kind: 'error', text: authText.linkWait(wait) };
      }
      if (error) return { kind: 'error', text: failureText(error) };
      setCodeStep({ email: address, type: 'email' });
      return { kind: 'success', text: authText.signInLinkSent(address) };
    });
  };
  const autofill = usePasskeyAutofill(
    supabase,
    useCallback((error: unknown) => setOutcome({ kind: 'error', text: passkeyFailureText(error) }), []),
  );
  const passkey = () => {
    autofill.stop();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.signInWithPasskey();
      if (error) return { kind: 'error', text: passkeyFailureText(error) };
      rememberPasskey();
      return null;
    });
  };
  if (codeStep)
    return (
      <CodeForm
        supabase={supabase}
        email={codeStep.email}
        type={codeStep.type}
        sent={outcome}
        initialWait={MAIL_INTERVAL_SECONDS}
        resend={() =>
          codeStep.type === 'email'
            ? sendSignInLink(supabase, codeStep.email)
            : resendConfirmation(supabase, codeStep.email)
        }
        onBack={() => {
          setCodeStep(null);
          setUnconfirmed(null);
          setOutcome(null);
        }}
      />
    );
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign in">
      <EmailField
        aria-invalid={outcome?.text === authText.emailRequired || undefined}
        // "webauthn": the browser may offer the user's passkeys here (usePasskeyAutofill).
        autoComplete="username webauthn"
        onFocus={autofill.start}
        value={email}
        onValueChange={setEmail}
      />
      <PasswordField autoComplete="current-password" value={password} onValueChange={setPassword} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign In</Submit>
      {unconfirmed && (
        <ResendButton
          label={authText.resendConfirmation}
          sentText={authText.confirmationResent}
          send={() => resendConfirmation(supabase, unconfirmed)}
          onOutcome={(next) => {
            setOutcome(next);
            if (next?.kind === 'success') setCodeStep({ email: unconfirmed, type: 'signup' });
          }}
        />
      )}
      <button
        type="button"
        className={secondaryButton}
        disabled={busy || linkWait.left > 0}
        onClick={sendLink}
      >
        {linkWait.left > 0 ? authText.resendIn(authText.emailMeALink, linkWait.left) : authText.emailMeALink}
      </button>
      <button type="button" className={secondaryButton} disabled={busy} onClick={passkey}>
        {authText.signInWithPasskey}
      </button>
    </form>
  );
}

function ResetForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const wait = useCountdown(0);
  /** The address a reset mail went to: its code may be typed here. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setOutcome({ kind: 'error', text: authText.emailRequired });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      const { error } = await (
        await supabase()
      ).auth.resetPasswordForEmail(email.trim(), {
        redirectTo: currentPage(),
      });
      const seconds = error && waitFrom(error);
      if (seconds) {
        wait.start(seconds);
        return { kind: 'error', text: authText.linkWait(seconds) };
      }
      if (error) return { kind: 'error', text: error.message };
      wait.start(MAIL_INTERVAL_SECONDS);
      setSentTo(email.trim());
      return { kind: 'success', text: authText.resetSent };
    });
  };
  if (sentTo)
    return (
      <CodeForm
        supabase={supabase}
        email={sentTo}
        type="recovery"
        sent={{ kind: 'success', text: authText.resetSent }}
        initialWait={wait.left}
        resend={async () =>
          (await (await supabase()).auth.resetPasswordForEmail(sentTo, { redirectTo: currentPage() })).error
        }
        onBack={() => {
          setSentTo(null);
          setOutcome(null);
        }}
      />
    );
  return (
    // noValidate: an empty address gets the own message rather than the browser's.
    <form onSubmit={submit} className="grid gap-4" aria-label="Reset password" noValidate>
      <EmailField
        aria-invalid={outcome?.text === authText.emailRequired || undefined}
        value={email}
        onValueChange={setEmail}
      />
      <Message outcome={outcome} />
      <Submit busy={busy} disabled={wait.left > 0}>
        {wait.left > 0 ? authText.resendIn('Send Reset Link', wait.left) : 'Send Reset Link'}
      </Submit>
    </form>
  );
}

/**
 * The auth card: Welcome, with Sign In / Sign Up / Reset tabs. `shell`: rendered in a prerendered
 * page's shell (and hydrated there), where the URL is not read.
 */
export function AuthCard({
  defaultTab = 'signin',
  shell = false,
  header = true,
}: {
  defaultTab?: AuthTab;
  shell?: boolean;
  /** Welcome and its line; left out on a page whose own heading says what the card is for. */
  header?: boolean;
}) {
  const supabase = useSupabase();
  return (
    <section
      aria-label={header ? undefined : authText.title}
      className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-border bg-white/95 py-6 shadow-sm backdrop-blur"
    >
      {header && (
        <div className="flex flex-col gap-1.5 px-6">
          <h2 className="text-xl leading-tight font-semibold">{authText.title}</h2>
          <p className="text-sm text-muted-foreground">{authText.description}</p>
        </div>
      )}
      <div className="px-6">
        <Tabs<AuthTab>
          defaultValue={defaultTab}
          tabs={[
            { value: 'signin', label: 'Sign In', content: <SignInForm supabase={supabase} shell={shell} /> },
            { value: 'signup', label: 'Sign Up', content: <SignUpForm supabase={supabase} /> },
            { value: 'reset', label: 'Reset', content: <ResetForm supabase={supabase} /> },
          ]}
        />
      </div>
    </section>
  );
}
