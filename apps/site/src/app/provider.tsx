import { lazy, useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { toastPlacement } from '@/components/ui/toast-placement';
import { paths } from '@/config/paths';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { onFirstInput } from '@/lib/session';
import { OptionalPart } from './optional-part';

// The toast viewport (sonner) loads on the landing pages at the visitor's first input, elsewhere
// after the first render: every toast follows a user action, and a landing page's JavaScript before
// the first input stays within its budget (docs/benchmarks.md).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));
const landingPaths: readonly string[] = [paths.home.path, paths.ediscovery.path, paths.onboarding.path];

function useToasterWanted(): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const path = window.location.pathname.replace(/\/+$/, '').toLowerCase() || '/';
    if (landingPaths.includes(path)) {
      onFirstInput(() => setWanted(true));
      return undefined;
    }
    const timer = setTimeout(() => setWanted(true), 0);
    return () => clearTimeout(timer);
  }, []);
  return wanted;
}

// richColors' own text colours (e.g. success hsl(140 100% 27%) on its pale green) fail WCAG AA
// contrast; these darker ones (Tailwind's -800s) pass on the same backgrounds.
const toastColours = {
  '--success-text': '#166534',
  '--info-text': '#1e40af',
  '--warning-text': '#92400e',
  '--error-text': '#991b1b',
} as CSSProperties;

export function AppProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const toaster = useToasterWanted();
  return (
    <PublicConfigContext.Provider value={config}>
      {/* The query cache is provided by the routes that use it (app/with-queries.tsx). */}
      {children}
      {toaster && (
        <OptionalPart>
          <Toaster richColors closeButton {...toastPlacement} style={toastColours} />
        </OptionalPart>
      )}
    </PublicConfigContext.Provider>
  );
}
