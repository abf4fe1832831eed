import { useMemo } from 'react';
import { createConversationsApi } from '@/features/conversations/api/conversations-api';
import { ConversationsPage } from '@/features/conversations/components/conversations-page';
import { usePublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { useEngageApi } from '@/lib/use-engage-api';

export function Component() {
  const config = usePublicConfig();
  const { user } = useSession();
  const server = useEngageApi();
  // Through the server's proxy: the private key stays on the server, which checks the role.
  const api = useMemo(
    () => createConversationsApi({ server, baseUrl: `${window.location.origin}/api/provider` }),
    [server],
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
