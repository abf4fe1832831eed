import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmailField } from '@/components/ui/credential-fields';
import { useInviteUser } from '../api/queries';
import { actionToasts, failure } from '../lib/messages';

/** Invite user: the address gets a mail with a link where they set their own password. */
export function InviteUserForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const invite = useInviteUser();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setProblem('Please provide an email address');
      return;
    }
    setProblem(null);
    try {
      const user = await invite.mutateAsync(email.trim());
      toast.success(actionToasts.invited(user.email));
      setEmail('');
    } catch (error) {
      // Said once, beside the form, not also in a toast.
      setProblem(failure(actionToasts.inviteFailed, error));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send className="size-5" aria-hidden /> Invite user
        </CardTitle>
        <CardDescription>They get a mail with a link to set their password.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          aria-label="Invite user"
          className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
        >
          <EmailField
            label="Email to invite"
            autoComplete="off"
            value={email}
            onValueChange={setEmail}
            aria-invalid={problem !== null ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Send invitation'}
          </Button>
        </form>
        <p id={`${id}-problem`} aria-live="polite" className="mt-3 min-h-5 text-sm text-destructive">
          {problem}
        </p>
      </CardContent>
    </Card>
  );
}
