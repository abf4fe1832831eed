import { KbImportAccess } from '@/features/kb-import/components/kb-import-access';
import { usePublicConfig } from '@/lib/public-config';
import { useSession, useSessionSource } from '@/lib/session';
import { getAccessToken, getSupabase } from '@/lib/supabase';

export function Component() {
  const config = usePublicConfig();
  const { user } = useSession();
  const session = useSessionSource();
  const origin = window.location.origin;
  return (
    <KbImportAccess
      userRole={user?.app_metadata?.role}
      email={user?.email}
      providerName={config.provider.name}
      providerBaseUrl={config.provider.baseUrl ?? `${origin}/provider`}
      serverHoldsPrivateKey={config.provider.serverHoldsPrivateKey}
      proxyBaseUrl={`${origin}/api/provider`}
      getAccessToken={() => {
        getSupabase(config);
        return getAccessToken();
      }}
      refreshRole={async () => {
        const { data, error } = await getSupabase(config).auth.refreshSession();
        if (error) throw error;
        return data.session?.user.app_metadata?.role;
      }}
      storage={window.localStorage}
      onSessionRefused={session.confirm}
    />
  );
}
