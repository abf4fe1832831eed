import type { SupabaseClient } from '@supabase/supabase-js';
import { Loader2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useSupabase } from '@/lib/session';
import { authText } from '../messages';

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
        {outcome?.kind === 'error' && (
          <Alert variant="destructive" className="border-red-300 bg-red-50 text-red-800">
            <AlertDescription>{outcome.text}</AlertDescription>
          </Alert>
        )}
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'success' && (
          <Alert className="border-emerald-300 bg-emerald-50 text-emerald-900">
            <AlertDescription>{outcome.text}</AlertDescription>
          </Alert>
        )}
      </div>
    </>
  );
}

function Submit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
      {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
      {children}
    </Button>
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

function SignInForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(linkError);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.signInWithPassword({ email: email.trim(), password });
      return error ? { kind: 'error', text: error.message } : null;
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign in">
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign In</Submit>
    </form>
  );
}

function SignUpForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const mismatch = outcome?.text === authText.passwordsDoNotMatch;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) {
      setOutcome({ kind: 'error', text: authText.passwordsDoNotMatch });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      const { error } = await (
        await supabase()
      ).auth.signUp({
        email: email.trim(),
        password,
        options: { emailRedirectTo: currentPage() },
      });
      if (error) return { kind: 'error', text: error.message };
      setPassword('');
      setConfirm('');
      return { kind: 'success', text: authText.signUpSuccess };
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign up">
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        required
        aria-invalid={mismatch || undefined}
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign Up</Submit>
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
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        required
        aria-invalid={outcome?.text === authText.emailRequired || undefined}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
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
    <Card className="w-full max-w-md bg-white/95 backdrop-blur">
      <CardHeader>
        <CardTitle>{authText.title}</CardTitle>
        <CardDescription>{authText.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue={defaultTab}>
          <TabsList className="w-full">
            <TabsTrigger value="signin">Sign In</TabsTrigger>
            <TabsTrigger value="signup">Sign Up</TabsTrigger>
            <TabsTrigger value="reset">Reset</TabsTrigger>
          </TabsList>
          <TabsContent value="signin">
            <SignInForm supabase={supabase} />
          </TabsContent>
          <TabsContent value="signup">
            <SignUpForm supabase={supabase} />
          </TabsContent>
          <TabsContent value="reset">
            <ResetForm supabase={supabase} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
