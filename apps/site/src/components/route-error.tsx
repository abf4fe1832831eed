import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The fallback for unhandled routing errors (SPEC §2 'Other'). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
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
