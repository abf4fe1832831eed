import { Loader2 } from 'lucide-react';
import type { Root } from 'react-dom/client';
import type { PublicConfig } from '@/lib/public-config';

/**
 * What the page shows before the app can start: the configuration (/config.json) is loading, or it
 * (or the start) failed. Only where the server did not write the configuration into the page
 * (`npm run dev`, or a page served without it); the owner's title is not known yet.
 */

export function ConfigLoading() {
  return (
    <main aria-busy="true" className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <div role="status" className="flex flex-col items-center gap-3 text-slate-600">
        <Loader2 className="size-8 animate-spin" aria-hidden="true" />
        <p className="text-sm">Loading the site…</p>
      </div>
    </main>
  );
}

const buttonClass =
  'inline-flex h-9 items-center justify-center rounded-md px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

/** The start failed: what happened in plain words, the detail, and a way to try again. */
export function StartFailure({ detail, onRetry }: { detail: string; onRetry?: () => void }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 px-4 py-12">
      <div role="alert" className="w-full max-w-md rounded-lg border border-border bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">The site cannot reach its server</h1>
        <p className="mt-3 text-sm text-slate-700">
          The page could not load its settings. Check your connection and that the server is running, then try
          again.
        </p>
        <p className="mt-2 text-xs break-words text-slate-600">Details: {detail}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          {onRetry && (
            <button
              type="button"
              className={`${buttonClass} bg-primary text-primary-foreground hover:bg-primary/90`}
              onClick={onRetry}
            >
              Try again
            </button>
          )}
          <button
            type="button"
            className={`${buttonClass} border border-border bg-white text-slate-900 hover:bg-muted`}
            onClick={() => window.location.reload()}
          >
            Reload the page
          </button>
        </div>
      </div>
    </main>
  );
}

/**
 * Loads the configuration into `root`: the loading state at once, the failure with "Try again" when
 * it fails (each try shows the loading state again). Resolves with the configuration once a try
 * succeeds; never rejects.
 */
export function loadConfigInto(root: Root, load: () => Promise<PublicConfig>): Promise<PublicConfig> {
  return new Promise((resolve) => {
    const attempt = () => {
      root.render(<ConfigLoading />);
      load().then(resolve, (error: unknown) =>
        root.render(<StartFailure detail={messageOf(error)} onRetry={attempt} />),
      );
    };
    attempt();
  });
}

export const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'Unknown error.';
