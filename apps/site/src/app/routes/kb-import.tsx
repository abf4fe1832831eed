import { KbImportTool } from '@/features/kb-import/components/kb-import-tool';
import { usePublicConfig } from '@/lib/public-config';
import { getAccessToken, getSupabase } from '@/lib/supabase';

export function Component() {
  const config = usePublicConfig();
  const origin = window.location.origin;
  return (
    <KbImportTool
      providerName={config.provider.name}
      providerBaseUrl={config.provider.baseUrl ?? `${origin}/provider`}
      serverHoldsPrivateKey={config.provider.serverHoldsPrivateKey}
      proxyBaseUrl={`${origin}/api/provider`}
      getAccessToken={() => {
        getSupabase(config);
        return getAccessToken();
      }}
      storage={window.localStorage}
    />
  );
}
