import { ShieldAlert } from 'lucide-react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * /conversations for a signed-in user without the operator role: visitors' conversations are for
 * operators and administrators (the server refuses the provider routes to anyone else).
 */
export function OperatorNeeded({ email }: { email?: string }) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <Card>
        <CardHeader>
          <ShieldAlert className="size-10 text-destructive" aria-hidden />
          <CardTitle level={1} className="text-2xl">
            Operator access needed
          </CardTitle>
          <CardDescription>
            Visitors&apos; conversations are shown to operators and administrators only.
            {email ? ` You are signed in as ${email}, which does not have the operator role.` : ''} Ask an
            administrator to give your account the Operator role, then sign out and sign in again.
          </CardDescription>
        </CardHeader>
      </Card>
    </main>
  );
}
