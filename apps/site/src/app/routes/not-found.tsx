import { Link, useLocation } from 'react-router';

export function Component() {
  const { pathname } = useLocation();
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-semibold">Page not found</h1>
      <p className="mt-3 text-muted-foreground">
        There is no page at <code className="rounded bg-muted px-1">{pathname}</code>.
      </p>
      <Link className="mt-6 inline-block underline" to="/">
        Back to the home page
      </Link>
    </main>
  );
}
