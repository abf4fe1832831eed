import { useId, useState, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';
import { PasswordToggle } from './password-toggle';

/**
 * A labelled password input with a show/hide toggle (the toggle's name is "Show password", its state
 * `aria-pressed`), for forms outside the auth card (the profile, the invite and recovery dialogs).
 */
export function PasswordField({
  label,
  className,
  ...input
}: Omit<ComponentProps<'input'>, 'type'> & { label: string }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input id={id} type={shown ? 'text' : 'password'} className={cn('pr-10', className)} {...input} />
        <PasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />
      </div>
    </div>
  );
}
