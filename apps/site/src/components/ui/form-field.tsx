import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';

export type FormFieldProps = ComponentProps<typeof Input> & {
  /** The visible label; it is the input's accessible name. */
  label: ReactNode;
  /** Help text under the input, read after the name. */
  hint?: ReactNode;
  /** A message for this field: shown under the input, which is then marked invalid. */
  error?: ReactNode;
  /** Classes for the wrapper (the input takes `className`). */
  fieldClassName?: string;
};

/**
 * A labelled input: the label is bound to the input by id (one is made when none is given), and a
 * hint or error is read with it through aria-describedby. `aria-invalid` and `aria-describedby`
 * given by the caller are kept, so a message shown elsewhere can describe the field too.
 */
export function FormField({
  label,
  hint,
  error,
  fieldClassName,
  id,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  ...input
}: FormFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const describers = [describedBy, hint ? hintId : undefined, hasError ? errorId : undefined].filter(Boolean);
  return (
    <div className={cn('grid gap-2', fieldClassName)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-describedby={describers.length > 0 ? describers.join(' ') : undefined}
        aria-invalid={invalid ?? (hasError || undefined)}
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {hasError && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
