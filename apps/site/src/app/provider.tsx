import { useEffect, useState, type ReactNode } from 'react';
import { paths } from '@/config/paths';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { onFirstInput } from '@/lib/session';
import { SiteToaster } from './site-toaster';

// The toasts (app/site-toaster.tsx) mount on the landing pages at the visitor's first input,
// elsewhere after the first render: every toast follows a user action, and a landing page's
// JavaScript before the first input stays within its budget (docs/benchmarks.md).
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

export function AppProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const toaster = useToasterWanted();
  return (
    <PublicConfigContext.Provider value={config}>
      {/* The query cache is provided by the routes that use it (app/with-queries.tsx). */}
      {children}
      {toaster && <SiteToaster />}
    </PublicConfigContext.Provider>
  );
}
