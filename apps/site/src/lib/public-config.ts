import { createContext, useContext } from 'react';
import type { PublicConfig } from './public-config-source';

export { loadPublicConfig, readInjectedConfig, type PublicConfig } from './public-config-source';

let current: PublicConfig | null = null;

/** Records the configuration the app started with, for code outside React (lib/supabase.ts). */
export function setCurrentPublicConfig(config: PublicConfig): void {
  current = config;
}

export function currentPublicConfig(): PublicConfig | null {
  return current;
}

export const PublicConfigContext = createContext<PublicConfig | null>(null);

/** The public configuration; only valid below <PublicConfigContext.Provider>. */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('usePublicConfig must be used inside the app providers');
  return config;
}
