import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The auth card's own small parts (its fields are components/ui/credential-fields.tsx): plain class strings (no tailwind-merge) and a tab list without
 * Radix. The card is what a signed-out visitor of a guarded page loads before the first input, and
 * the shared ui components' class merging and Radix Tabs cost it ~17 kB gzip (docs/decisions.md).
 * They look and behave as the shared ones: same classes, same ARIA.
 */

export function SubmitButton({
  busy,
  disabled = false,
  children,
}: {
  busy: boolean;
  /** Not yet possible (a mail's wait), besides while busy. */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      disabled={busy || disabled}
      aria-busy={busy}
      className="inline-flex h-9 w-full shrink-0 items-center justify-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium whitespace-nowrap text-primary-foreground transition-colors hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0"
    >
      {children}
    </button>
  );
}

/** A message box: errors are announced at once (role="alert"), successes politely (role="status"). */
export function Notice({ kind, children }: { kind: 'error' | 'success'; children: ReactNode }) {
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      data-variant={kind === 'error' ? 'destructive' : 'default'}
      className={`relative grid w-full items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm ${
        kind === 'error'
          ? 'border-red-300 bg-red-50 text-red-800'
          : 'border-emerald-300 bg-emerald-50 text-emerald-900'
      }`}
    >
      <div className="grid justify-items-start gap-1 text-sm">{children}</div>
    </div>
  );
}

export interface TabSpec<K extends string> {
  value: K;
  label: string;
  content: ReactNode;
}

/**
 * Tabs with the WAI-ARIA tabs pattern, as Radix does it: one tab stop, arrow keys (Home, End) move
 * and activate, each panel labelled by its tab; only the active panel is mounted.
 */
export function Tabs<K extends string>({ tabs, defaultValue }: { tabs: TabSpec<K>[]; defaultValue: K }) {
  const [active, setActive] = useState<K>(defaultValue);
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.value === active);
    const next =
      e.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    const tab = tabs[next];
    if (!tab) return;
    e.preventDefault();
    setActive(tab.value);
    refs.current.get(tab.value)?.focus();
  };
  const current = tabs.find((t) => t.value === active);
  return (
    <div className="flex flex-col gap-4">
      <div
        role="tablist"
        aria-orientation="horizontal"
        className="inline-flex h-9 w-full items-center rounded-lg bg-muted p-1 text-muted-foreground"
      >
        {tabs.map((t) => (
          <button
            key={t.value}
            ref={(el) => {
              if (el) refs.current.set(t.value, el);
              else refs.current.delete(t.value);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.value}`}
            aria-selected={t.value === active}
            aria-controls={`${base}-panel-${t.value}`}
            data-state={t.value === active ? 'active' : 'inactive'}
            tabIndex={t.value === active ? 0 : -1}
            onClick={() => setActive(t.value)}
            onKeyDown={onKeyDown}
            className="inline-flex h-full flex-1 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm"
          >
            {t.label}
          </button>
        ))}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.value}`}
          aria-labelledby={`${base}-tab-${current.value}`}
          tabIndex={0}
          className="flex-1 focus-visible:outline-2 focus-visible:outline-ring"
        >
          {current.content}
        </div>
      )}
    </div>
  );
}
