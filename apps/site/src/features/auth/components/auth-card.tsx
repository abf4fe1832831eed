import { Loader2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  EmailField,
  NewPasswordFields,
  OneTimeCodeField,
  PasswordField,
  useNewPassword,
} from '@/components/ui/credential-fields';
import { useClearLinkResult } from '@/lib/link-result';
import { useSupabase } from '@/lib/session';
import type { SupabaseClient } from '@/lib/supabase';
import { authText } from '../messages';
import { Notice, SubmitButton, Tabs } from './auth-ui';

export type AuthTab = 'signin' | 'signup' | 'reset';

type Outcome = { kind: 'error' | 'success'; text: string } | null;

/**
 * A mail link that failed (used or expired) lands here with GoTrue's error in the fragment; the
 * sign-in form shows it so the user knows why they are not signed in.
 */
function linkError(): Outcome {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const description = params.get('error_description');
  return description ? { kind: 'error', text: description } : null;
}

/** Where a mail link should bring the user back to: the page they are on now, without a fragment. */
const currentPage = () => window.location.href.split('#')[0] as string;

function Message({ outcome }: { outcome: Outcome }) {
  // Both live regions stay mounted so screen readers announce the text when it appears.
  return (
    <>
      <div aria-live="assertive">
        {outcome?.kind === 'error' && <Notice kind="error">{outcome.text}</Notice>}
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'success' && <Notice kind="success">{outcome.text}</Notice>}
      </div>
    </>
  );
}

function Submit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <SubmitButton busy={busy}>
      {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
      {children}
    </SubmitButton>
  );
}

async function run(
  setBusy: (b: boolean) => void,
  setOutcome: (o: Outcome) => void,
  action: () => Promise<Outcome>,
) {
  setBusy(true);
  setOutcome(null);
  try {
    setOutcome(await action());
  } catch (error) {
    setOutcome({
      kind: 'error',
      text: (error as Error).message || 'Something went wrong. Please try again.',
    });
  } finally {
    setBusy(false);
  }
}

const secondaryButton =
  'inline-flex h-9 w-full items-center justify-center gap-2 rounded-md border border-border bg-background px-4 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50';

function SignInForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(linkError);
  useClearLinkResult(); // shown from state now: the fragment leaves the address bar
  /** The address a sign-in link and code went to: the form then asks for the code. */
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.signInWithPassword({ email: email.trim(), password });
      return error ? { kind: 'error', text: error.message } : null;
    });
  };
  const sendLink = () => {
    const address = email.trim();
    if (!address) {
      setOutcome({ kind: 'error', text: authText.emailRequired });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      // Sign-in only: a new account goes through Sign Up (whose mail tells the admin).
      const { error } = await (
        await supabase()
      ).auth.signInWithOtp({
        email: address,
        options: { shouldCreateUser: false, emailRedirectTo: currentPage() },
      });
      if (error) return { kind: 'error', text: error.message };
      setCodeSentTo(address);
      return { kind: 'success', text: authText.signInLinkSent(address) };
    });
  };
  if (codeSentTo)
    return (
      <CodeForm
        supabase={supabase}
        email={codeSentTo}
        sent={outcome}
        onBack={() => {
          setCodeSentTo(null);
          setOutcome(null);
        }}
      />
    );
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign in">
      <EmailField
        aria-invalid={outcome?.text === authText.emailRequired || undefined}
        value={email}
        onValueChange={setEmail}
      />
      <PasswordField autoComplete="current-password" value={password} onValueChange={setPassword} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign In</Submit>
      <button type="button" className={secondaryButton} disabled={busy} onClick={sendLink}>
        {authText.emailMeALink}
      </button>
    </form>
  );
}

/** After "Email me a sign-in link": the mail's six-digit code signs in here (or its link does). */
function CodeForm({
  supabase,
  email,
  sent,
  onBack,
}: {
  supabase: () => Promise<SupabaseClient>;
  email: string;
  sent: Outcome;
  onBack: () => void;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(sent);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.verifyOtp({ email, token: code.trim(), type: 'email' });
      return error ? { kind: 'error', text: error.message } : null;
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign in with a code">
      <OneTimeCodeField label="Six-digit code" value={code} onValueChange={setCode} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Verify Code</Submit>
      <button type="button" className={secondaryButton} onClick={onBack}>
        Back to password sign-in
      </button>
    </form>
  );
}

function SignUpForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const newPassword = useNewPassword();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  /** The address a confirmation went to: it may be sent again. */
  const [signedUp, setSignedUp] = useState<string | null>(null);
  const mismatch = outcome?.text === authText.passwordsDoNotMatch;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!newPassword.matches) {
      setOutcome({ kind: 'error', text: authText.passwordsDoNotMatch });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      const { error } = await (
        await supabase()
      ).auth.signUp({
        email: email.trim(),
        password: newPassword.password,
        options: { emailRedirectTo: currentPage() },
      });
      if (error) return { kind: 'error', text: error.message };
      newPassword.clear();
      setSignedUp(email.trim());
      return { kind: 'success', text: authText.signUpSuccess };
    });
  };
  const resend = () => {
    if (!signedUp) return;
    void run(setBusy, setOutcome, async () => {
      // The server answers too soon a second time with its own "only after N seconds" message.
      const { error } = await (
        await supabase()
      ).auth.resend({ type: 'signup', email: signedUp, options: { emailRedirectTo: currentPage() } });
      return error
        ? { kind: 'error', text: error.message }
        : { kind: 'success', text: authText.confirmationResent };
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign up">
      <EmailField value={email} onValueChange={setEmail} />
      <NewPasswordFields label="Password" {...newPassword.fields} mismatch={mismatch} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign Up</Submit>
      {signedUp && (
        <button type="button" className={secondaryButton} disabled={busy} onClick={resend}>
          {authText.resendConfirmation}
        </button>
      )}
    </form>
  );
}

function ResetForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
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
      return error ? { kind: 'error', text: error.message } : { kind: 'success', text: authText.resetSent };
    });
  };
  return (
    // noValidate: an empty address gets SPEC §5's own message rather than the browser's.
    <form onSubmit={submit} className="grid gap-4" aria-label="Reset password" noValidate>
      <EmailField
        aria-invalid={outcome?.text === authText.emailRequired || undefined}
        value={email}
        onValueChange={setEmail}
      />
      <Message outcome={outcome} />
      <Submit busy={busy}>Send Reset Link</Submit>
    </form>
  );
}

/** The auth card of SPEC §2: Welcome, with Sign In / Sign Up / Reset tabs. */
export function AuthCard({ defaultTab = 'signin' }: { defaultTab?: AuthTab }) {
  const supabase = useSupabase();
  return (
    <section className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-border bg-white/95 py-6 shadow-sm backdrop-blur">
      <div className="flex flex-col gap-1.5 px-6">
        <h2 className="text-xl leading-tight font-semibold">{authText.title}</h2>
        <p className="text-sm text-muted-foreground">{authText.description}</p>
      </div>
      <div className="px-6">
        <Tabs<AuthTab>
          defaultValue={defaultTab}
          tabs={[
            { value: 'signin', label: 'Sign In', content: <SignInForm supabase={supabase} /> },
            { value: 'signup', label: 'Sign Up', content: <SignUpForm supabase={supabase} /> },
            { value: 'reset', label: 'Reset', content: <ResetForm supabase={supabase} /> },
          ]}
        />
      </div>
    </section>
  );
}
