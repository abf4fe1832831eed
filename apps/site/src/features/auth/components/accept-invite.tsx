import { Loader2 } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NewPasswordFields } from '@/components/ui/credential-fields';
import { useClearLinkResult } from '@/lib/link-result';
import { useSession, useSupabase } from '@/lib/session';
import { authText } from '../messages';
import { useSetPassword } from './use-set-password';

/** GoTrue's explanation of a failed link, read before auth-js consumes the fragment. */
function linkError(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get('error_description');
}

// Only for somebody without the link's session: the mail's code instead.
const InviteCodeForm = lazy(() => import('./invite-code-form').then((m) => ({ default: m.InviteCodeForm })));

/**
 * Where an invitation's link lands (`redirect_to=/accept-invite`): /verify has signed the invited user
 * in (the session is in the URL fragment, which lib/session.tsx hands to auth-js); here they choose
 * their password (PUT /user), then go to the home page signed in.
 */
export function AcceptInvite() {
  const { user, loading } = useSession();
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { fields, error, busy, submit } = useSetPassword({
    initialError: linkError,
    onDone: () => {
      toast.success(authText.invitePasswordSet);
      void navigate('/');
    },
  });
  useClearLinkResult(); // shown from state now: the fragment leaves the address bar
  /** Nobody signed in by a link: the invitation's code may be typed (it shows a failed link's error). */
  const codeStep = !loading && !user;

  return (
    <main
      className="flex min-h-[calc(100dvh-3.5rem)] items-center justify-center bg-slate-100 bg-cover bg-center px-4 py-12"
      style={{ backgroundImage: 'url(/auth-bg.svg)' }}
    >
      <Card className="w-full max-w-md bg-white/95">
        <CardHeader>
          <CardTitle level={1}>{authText.inviteTitle}</CardTitle>
          <CardDescription>
            {user ? authText.inviteDescription(user.email ?? '') : authText.inviteCodeDescription}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {loading ? (
            <div role="status" className="flex justify-center py-6">
              <Loader2 className="size-6 animate-spin text-slate-500" aria-hidden="true" />
              <span className="sr-only">Loading your invitation…</span>
            </div>
          ) : codeStep ? (
            <Suspense fallback={null}>
              <InviteCodeForm supabase={supabase} initial={error ? { kind: 'error', text: error } : null} />
            </Suspense>
          ) : (
            <form className="grid gap-4" aria-label="Set your password" onSubmit={submit}>
              <NewPasswordFields {...fields} />
              <Button type="submit" disabled={busy} aria-busy={busy}>
                {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
                Set Password
              </Button>
            </form>
          )}
          <div aria-live="assertive">
            {error && !codeStep && (
              <Alert variant="destructive" className="border-red-300 bg-red-50 text-red-800">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            )}
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
