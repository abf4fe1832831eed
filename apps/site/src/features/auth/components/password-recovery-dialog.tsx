import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { NewPasswordFields } from '@/components/ui/credential-fields';
import { useSession, useSessionSource } from '@/lib/session';
import { useSetPassword } from './use-set-password';

/** After a password-reset link signs the user in, asks for the new password (PUT /user). */
export function PasswordRecoveryDialog() {
  const { passwordRecovery } = useSession();
  const close = useSessionSource().endPasswordRecovery;
  const { fields, error, busy, submit } = useSetPassword({
    onDone: () => {
      close();
      toast.success('Your password has been updated.');
    },
  });

  return (
    <Dialog.Root open={passwordRecovery} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 grid w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 gap-4 rounded-lg bg-white p-6 text-slate-900 shadow-lg">
          <Dialog.Title className="text-lg font-semibold">Choose a new password</Dialog.Title>
          <Dialog.Description className="text-sm text-slate-600">
            You followed a password reset link. Enter the new password for your account.
          </Dialog.Description>
          <form className="grid gap-4" onSubmit={submit}>
            <NewPasswordFields {...fields} />
            <div aria-live="assertive">
              {error && (
                <Alert variant="destructive" className="border-red-300 bg-red-50 text-red-800">
                  <AlertDescription>{error}</AlertDescription>
                </Alert>
              )}
            </div>
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button type="button" variant="outline">
                  Later
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={busy}>
                Update Password
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
