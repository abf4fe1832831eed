import { useMemo } from 'react';
import { createConversationsApi } from '@/features/conversations/api/conversations-api';
import { ConversationsPage } from '@/features/conversations/components/conversations-page';
import { usePublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { getAccessToken, getSupabase } from '@/lib/supabase';

export function Component() {
  const config = usePublicConfig();
  const { user } = useSession();
  // Through the server's proxy: the private key stays on the server, which checks the role.
  const api = useMemo(
    () =>
      createConversationsApi({
        baseUrl: `${window.location.origin}/api/provider`,
        getToken: () => {
          getSupabase(config);
          return getAccessToken();
        },
      }),
    [config],
  );
  const siteAssistantIds = useMemo(
    () => (config.assistants ? Object.values(config.assistants) : []),
    [config.assistants],
  );
  return (
    <ConversationsPage
      api={api}
      userRole={user?.app_metadata?.role}
      email={user?.email}
      siteAssistantIds={siteAssistantIds}
    />
  );
}
