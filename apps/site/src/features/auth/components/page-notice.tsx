import type { ReactNode } from 'react';

const TONES = {
  warning: {
    band: 'border-amber-300 bg-amber-50 text-amber-900',
    button: 'hover:bg-amber-100 focus-visible:outline-amber-700',
  },
  success: {
    band: 'border-emerald-300 bg-emerald-50 text-emerald-900',
    button: 'hover:bg-emerald-100 focus-visible:outline-emerald-700',
  },
} as const;

/**
 * A band above the page that says what just happened to the session (it ended; a mail link signed
 * the user in), until dismissed. `role` is `alert` for what went wrong, `status` for news.
 */
export function PageNotice({
  tone,
  role,
  children,
  onDismiss,
}: {
  tone: keyof typeof TONES;
  role: 'alert' | 'status';
  children: ReactNode;
  onDismiss: () => void;
}) {
  const colours = TONES[tone];
  return (
    <div className={`border-b px-4 py-3 ${colours.band}`}>
      <div
        role={role}
        className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-x-4 gap-y-2"
      >
        <p className="text-sm font-medium">{children}</p>
        <button
          type="button"
          onClick={onDismiss}
          className={`rounded-md px-2 py-1 text-sm underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 ${colours.button}`}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
