import { lazy, type CSSProperties, type ReactNode } from 'react';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { OptionalPart } from './optional-part';

// The toast viewport loads after the first render: no page needs it to paint, and keeping sonner out
// of the entry chunk lightens every landing page (docs/benchmarks.md).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

// richColors' own text colours (e.g. success hsl(140 100% 27%) on its pale green) fail WCAG AA
// contrast; these darker ones (Tailwind's -800s) pass on the same backgrounds.
const toastColours = {
  '--success-text': '#166534',
  '--info-text': '#1e40af',
  '--warning-text': '#92400e',
  '--error-text': '#991b1b',
} as CSSProperties;

export function AppProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return (
    <PublicConfigContext.Provider value={config}>
      {/* The query cache is provided by the routes that use it (app/with-queries.tsx). */}
      {children}
      <OptionalPart>
        <Toaster richColors closeButton position="top-right" style={toastColours} />
      </OptionalPart>
    </PublicConfigContext.Provider>
  );
}
