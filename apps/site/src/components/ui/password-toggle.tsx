import { Eye, EyeOff } from 'lucide-react';

/**
 * The eye button inside a password input: shows or hides the password. Its name stays "Show password"
 * and its state is `aria-pressed` (WAI-ARIA's toggle button; a label that changed too would read "Hide
 * password, pressed"). The name is text, not aria-label, so finding a field by its label ("Password")
 * finds the input only. Plain classes (no tailwind-merge): the auth card uses it too.
 */
export function PasswordToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={shown}
      onClick={onToggle}
      className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring"
    >
      {shown ? (
        <EyeOff className="size-4" aria-hidden="true" />
      ) : (
        <Eye className="size-4" aria-hidden="true" />
      )}
      <span className="sr-only">Show password</span>
    </button>
  );
}
