import { useQuery } from '@tanstack/react-query';
import type { KbImport } from './use-kb-import';

/** The provider's assistants for the select; loaded once a key (or the server's) is available. */
export function useAssistants(kb: KbImport) {
  return useQuery({
    // The settled key is part of the cache key so a corrected key loads again; it stays in memory only.
    queryKey: ['kb-import', 'assistants', kb.credentialsKey],
    enabled: kb.hasKey && kb.credentialsKey !== '',
    retry: false,
    queryFn: async () => {
      const api = kb.controller.api();
      if (!api) return [];
      return api.listAssistants();
    },
  });
}
