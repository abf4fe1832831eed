import { useState } from 'react';
import { useClearLinkResult } from '@/lib/link-result';
import { useSession, useSupabase } from '@/lib/session';
import { profileText } from '../messages';
import { ChangeEmail } from './change-email';
import { ChangePassword } from './change-password';
import { DeleteAccount } from './delete-account';
import { FormMessage, type Outcome } from './form-message';
import { Passkeys } from './passkeys';
import { TwoFactor } from './two-factor';

/** An email-change link's result comes back here in the fragment (GoTrue's `message` or error). */
function linkOutcome(): Outcome {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const error = params.get('error_description');
  if (error) return { kind: 'error', text: error };
  const message = params.get('message');
  return message ? { kind: 'success', text: message } : null;
}

/** The signed-in user's own account (behind the route guard): email, password, email change, passkeys, 2FA, deletion. */
export function ProfilePage() {
  const { user } = useSession();
  const supabase = useSupabase();
  const [fromLink] = useState(linkOutcome);
  useClearLinkResult(); // shown from state now: the fragment leaves the address bar
  const email = user?.email ?? '';
  return (
    <main className="mx-auto grid w-full max-w-2xl gap-8 px-4 py-10">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{profileText.title}</h1>
        <p className="text-sm text-muted-foreground">
          Signed in as <strong data-testid="profile-page-email">{email}</strong>
          {user?.new_email ? ` (changing to ${user.new_email}: confirm from both mails)` : ''}
        </p>
        <FormMessage outcome={fromLink} />
      </div>
      <div className="rounded-lg border border-border p-6">
        <ChangePassword email={email} supabase={supabase} />
      </div>
      <div className="rounded-lg border border-border p-6">
        <ChangeEmail email={email} supabase={supabase} />
      </div>
      <div className="rounded-lg border border-border p-6">
        <Passkeys supabase={supabase} />
      </div>
      <div className="rounded-lg border border-border p-6">
        <TwoFactor supabase={supabase} />
      </div>
      <div className="rounded-lg border border-destructive/40 p-6">
        <DeleteAccount email={email} supabase={supabase} />
      </div>
    </main>
  );
}
