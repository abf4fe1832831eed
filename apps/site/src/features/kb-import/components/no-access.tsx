import { KeyRound, RefreshCw, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

export interface NoAccessProps {
  providerName: string;
  /** The signed-in user's address, when known. */
  email?: string;
  /** The user chose to type their own private key. */
  onUseOwnKey: () => void;
  /**
   * Asks the auth service for a fresh session (its token carries the role as it is now): true when
   * the account has the role. A role given after sign-in needs no sign-out.
   */
  onCheckAgain?: () => Promise<boolean>;
}

/** "Check again": a fresh session brings a role an administrator has just given. */
function CheckAgain({ check }: { check: () => Promise<boolean> }) {
  const [state, setState] = useState<'idle' | 'checking' | 'still-none' | 'failed'>('idle');
  const run = async () => {
    setState('checking');
    try {
      setState((await check()) ? 'idle' : 'still-none');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="grid justify-items-start gap-2">
      <Button
        variant="outline"
        onClick={() => void run()}
        disabled={state === 'checking'}
        aria-busy={state === 'checking'}
      >
        <RefreshCw aria-hidden className={state === 'checking' ? 'animate-spin' : undefined} /> Check again
      </Button>
      <p role="status" className="text-sm text-muted-foreground">
        {state === 'still-none'
          ? 'Your account does not have the Operator role yet.'
          : state === 'failed'
            ? 'The check could not reach the sign-in service. Try again in a moment.'
            : ''}
      </p>
    </div>
  );
}

/**
 * /kb-import for a signed-in user without the operator role (docs/architecture.md, "Roles"): the server's
 * provider key is not theirs to use, so they are told how to get access, or may bring their own
 * key, which the browser sends straight to the provider.
 */
export function NoAccess({ providerName, email, onUseOwnKey, onCheckAgain }: NoAccessProps) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <Card>
        <CardHeader>
          <ShieldAlert className="size-10 text-destructive" aria-hidden />
          <CardTitle level={1} className="text-2xl">
            Operator access needed
          </CardTitle>
          <CardDescription>
            The {providerName} Knowledge Base Bulk Import Tool uses the server&apos;s {providerName} private
            key only for operators and administrators.
            {email ? ` You are signed in as ${email}, which does not have the operator role.` : ''}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <section aria-labelledby="kb-access-ask" className="grid gap-1">
            <h2 id="kb-access-ask" className="font-medium">
              Ask for access
            </h2>
            <p className="text-sm text-muted-foreground">
              Ask an administrator to give your account the Operator role (on their dashboard, Users). Once
              they have, press Check again: no need to sign out.
            </p>
            {onCheckAgain && <CheckAgain check={onCheckAgain} />}
          </section>
          <section aria-labelledby="kb-access-own" className="grid justify-items-start gap-2">
            <h2 id="kb-access-own" className="font-medium">
              Or use your own {providerName} private key
            </h2>
            <p className="text-sm text-muted-foreground">
              You type your own private key; this browser sends it directly to {providerName} with each
              request. It is never sent to or stored on our server; it is kept in this browser only.
            </p>
            <Button onClick={onUseOwnKey}>
              <KeyRound aria-hidden /> Use my own private key
            </Button>
          </section>
        </CardContent>
      </Card>
    </main>
  );
}
