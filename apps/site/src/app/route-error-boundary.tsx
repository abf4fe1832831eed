import { Component, type ReactNode } from 'react';

interface Props {
  /** The location the children show: a navigation elsewhere clears the error, as a router would. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  error: unknown;
  resetKey: string;
}

/**
 * True when a page's code could not be downloaded, in each browser's words (Chromium, Safari, Firefox,
 * webpack's ChunkLoadError, Vite's CSS preload): usually a new version was deployed and this page
 * still asks for the old files, so reloading is the cure; the module's URL means nothing to a reader.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i.test(
    error.message,
  );
}

export const staleVersionText =
  'This page could not be loaded: the site may have been updated since you opened it. Reload the page to get the latest version.';

/** The fallback for unhandled routing errors : a page that threw or failed to load. */
export function RouteErrorView({ error }: { error: unknown }) {
  const detail = isChunkLoadError(error)
    ? staleVersionText
    : error instanceof Error && error.message
      ? error.message
      : 'The page failed to load.';
  return (
    <main className="mx-auto max-w-xl p-8" role="alert">
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p className="mt-3 text-muted-foreground">{detail}</p>
      <p className="mt-6 flex gap-4">
        <button
          type="button"
          className="rounded-md bg-primary px-4 py-2 text-primary-foreground focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
        <a className="px-4 py-2 underline" href="/">
          Go to the home page
        </a>
      </p>
    </main>
  );
}

/**
 * The error boundary of the site's routes: a page that throws while rendering, or whose lazily
 * loaded module fails to download, shows RouteErrorView in its place until the visitor navigates.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { failed: false, error: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteErrorView error={this.state.error} /> : this.props.children;
  }
}
