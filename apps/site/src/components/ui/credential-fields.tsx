import { PASSWORD_RULE } from '@engage/http-contract';
import { useId, useLayoutEffect, useRef, useState, type ComponentProps } from 'react';
import { PasswordToggle } from './password-toggle';

/**
 * The credential inputs every form uses (sign-in, sign-up, recovery, invitation, profile, admin):
 * email, password with a show/hide toggle, a new password twice, a six-digit code. Plain class
 * strings (no tailwind-merge, no Radix): the auth card, loaded before a signed-out visitor's first
 * input, uses them too (docs/decisions.md). They look as components/ui/form-field.tsx does.
 */

const labelClass = 'flex items-center gap-2 text-sm leading-none font-medium select-none';
const inputClass =
  'flex h-9 w-full min-w-0 rounded-md border border-border bg-background px-3 py-1 text-base shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive md:text-sm';

type FieldProps = Omit<ComponentProps<'input'>, 'onChange' | 'value' | 'className' | 'ref'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
};

/**
 * A field of a prerendered page's form (the sign-in card in a guarded page's shell) may hold what the
 * visitor typed before the form's code ran. Hydration keeps the node and its text but not in the
 * state, and the next render would clear it: taken into the state once, as the field mounts.
 */
function useTypedBeforeHydration(value: string, onValueChange: (value: string) => void) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed && typed !== value) onValueChange(typed);
    // Once, on mount: later the input's own events keep the state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

/** A labelled input (the label is its accessible name), required unless told otherwise. */
function TextField({ label, onValueChange, ...input }: FieldProps) {
  const id = useId();
  const ref = useTypedBeforeHydration(input.value, onValueChange);
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        className={inputClass}
        required
        onChange={(e) => onValueChange(e.target.value)}
        {...input}
      />
    </div>
  );
}

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** An email address; autocomplete `email` unless told otherwise (admin forms name someone else). */
export function EmailField({ label = 'Email', ...input }: Optional<Omit<FieldProps, 'type'>, 'label'>) {
  return <TextField label={label} type="email" autoComplete="email" {...input} />;
}

/**
 * A password with a show/hide toggle (its name "Show password", its state `aria-pressed`; the name
 * is text, so finding the field by its label finds the input only).
 */
export function PasswordField({
  label = 'Password',
  onValueChange,
  ...input
}: Optional<Omit<FieldProps, 'type'>, 'label'>) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const ref = useTypedBeforeHydration(input.value, onValueChange);
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          ref={ref}
          type={shown ? 'text' : 'password'}
          className={`${inputClass} pr-10`}
          required
          onChange={(e) => onValueChange(e.target.value)}
          {...input}
        />
        <PasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />
      </div>
    </div>
  );
}

/** The state of NewPasswordFields: `fields` goes onto them, `matches` is checked before sending. */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return {
    password,
    matches: password === confirm,
    clear: () => {
      setPassword('');
      setConfirm('');
    },
    fields: { password, confirm, onPasswordChange: setPassword, onConfirmChange: setConfirm },
  };
}

/**
 * A new password and its confirmation ("<label>" and "Confirm <label>"); `mismatch` marks the
 * confirmation invalid. The caller compares them: each form words the mismatch its own way.
 */
export function NewPasswordFields({
  label = 'New Password',
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  mismatch,
}: {
  label?: string;
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  mismatch?: boolean;
}) {
  const ruleId = useId();
  return (
    <>
      <div className="grid gap-1">
        <PasswordField
          label={label}
          autoComplete="new-password"
          aria-describedby={ruleId}
          value={password}
          onValueChange={onPasswordChange}
        />
        {/* Said before it is needed, not first met as an error. */}
        <p id={ruleId} className="text-xs text-muted-foreground">
          {PASSWORD_RULE}
        </p>
      </div>
      <PasswordField
        label={`Confirm ${label}`}
        autoComplete="new-password"
        aria-invalid={mismatch || undefined}
        value={confirm}
        onValueChange={onConfirmChange}
      />
    </>
  );
}

/** A six-digit code from a mail or an authenticator app (the phone's keypad, one-time-code autofill). */
export function OneTimeCodeField(input: Omit<FieldProps, 'type'>) {
  return (
    <TextField inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} {...input} />
  );
}
