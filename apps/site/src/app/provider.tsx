import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';

export function AppProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } }),
  );
  return (
    <PublicConfigContext.Provider value={config}>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster richColors closeButton position="top-right" />
      </QueryClientProvider>
    </PublicConfigContext.Provider>
  );
}
