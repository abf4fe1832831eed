import type { ReactNode } from 'react';

/** A page's main heading, shown alone until the page's own feature lands. */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">{children}</h1>
    </main>
  );
}
