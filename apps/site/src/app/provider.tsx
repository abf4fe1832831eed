import { lazy, type ReactNode } from 'react';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { OptionalPart } from './optional-part';

// The toast viewport loads after the first render: no page needs it to paint, and keeping sonner out
// of the entry chunk lightens every landing page (docs/benchmarks.md).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

export function AppProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return (
    <PublicConfigContext.Provider value={config}>
      {/* The query cache is provided by the routes that use it (app/with-queries.tsx). */}
      {children}
      <OptionalPart>
        <Toaster richColors closeButton position="top-right" />
      </OptionalPart>
    </PublicConfigContext.Provider>
  );
}
