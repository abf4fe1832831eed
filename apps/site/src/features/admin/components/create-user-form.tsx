import { UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmailField, PasswordField } from '@/components/ui/credential-fields';
import { useCreateUser } from '../api/queries';
import { failure, MISSING_FIELDS, toasts } from '../lib/messages';

/** Create New User: email and password; the account is confirmed at once. */
export function CreateUserForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateUser();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A form's problem is said once, beside the form (its alert), not also in a toast.
    if (!email.trim() || !password) {
      setProblem(MISSING_FIELDS);
      return;
    }
    setProblem(null);
    try {
      await create.mutateAsync({ email: email.trim(), password });
      toast.success(toasts.created);
      setEmail('');
      setPassword('');
    } catch (error) {
      setProblem(failure(toasts.createFailed, error));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserPlus className="size-5" aria-hidden /> Create New User
        </CardTitle>
        <CardDescription>The new account is confirmed at once and can sign in straight away.</CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the form's own message is shown rather than the browser's bubble. */}
        <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <EmailField
            autoComplete="off"
            value={email}
            onValueChange={setEmail}
            aria-invalid={problem !== null && !email.trim() ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <PasswordField
            autoComplete="new-password"
            value={password}
            onValueChange={setPassword}
            aria-invalid={problem !== null && !password ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create User'}
          </Button>
        </form>
        <p id={`${id}-problem`} role="alert" className="mt-3 min-h-5 text-sm text-destructive">
          {problem}
        </p>
      </CardContent>
    </Card>
  );
}
