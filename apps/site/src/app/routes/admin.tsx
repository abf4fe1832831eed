import { AdminPage } from '@/features/admin/components/admin-page';
import { sqlEditorUrl } from '@/features/admin/lib/sql-editor-url';
import { EngageWidget } from '@/features/voice-widget/components/engage-widget';
import { usePublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { useEngageApi } from '@/lib/use-engage-api';

export function Component() {
  const { user, isAdmin, loading } = useSession();
  const config = usePublicConfig();
  const server = useEngageApi();
  return (
    <AdminPage
      loading={loading}
      isAdmin={isAdmin}
      currentUser={user ? { id: user.id, email: user.email } : null}
      server={server}
      sqlEditorUrl={sqlEditorUrl(config.auth)}
      renderWidgetPreview={(assistantId) => (
        <EngageWidget assistantId={assistantId} assistantName="assistant" />
      )}
    />
  );
}
