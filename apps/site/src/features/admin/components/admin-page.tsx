import { ShieldAlert } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { EngageApi } from '@/lib/engage-api';
import { createAdminApi } from '../api/client';
import { AdminApiContext } from '../api/queries';
import { AdminDashboard } from './admin-dashboard';

export interface AdminPageProps {
  loading: boolean;
  isAdmin: boolean;
  currentUser: { id: string; email?: string } | null;
  /** Engage's API client, with the user's token (lib/use-engage-api.ts). */
  server: EngageApi;
  sqlEditorUrl: string | null;
  /** The "Embed" panel's preview: the widget element for an assistant (composed in src/app). */
  renderWidgetPreview?: (assistantId: string) => ReactNode;
}

/** What a signed-in user without the admin role sees at /admin. */
export function NotAuthorised({ email }: { email?: string }) {
  return (
    <main className="mx-auto grid max-w-xl justify-items-start gap-4 px-4 py-16">
      <ShieldAlert className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold">Not authorised</h1>
      <p className="text-muted-foreground">
        The User Management Dashboard is for administrators only.
        {email ? ` You are signed in as ${email}, which does not have the admin role.` : ''} Ask an
        administrator if you need access.
      </p>
      <Link to="/" className="underline underline-offset-4">
        Go to the home page
      </Link>
    </main>
  );
}

/** /admin: the dashboard for admins, a clear refusal for anyone else (the server refuses them too). */
export function AdminPage({
  loading,
  isAdmin,
  currentUser,
  server,
  sqlEditorUrl,
  renderWidgetPreview,
}: AdminPageProps) {
  // A 403 mfa_required / mfa_enrollment_required makes the route guard ask for the code or an
  // authenticator app before the dashboard shows (and fetches) again (lib/engage-api.ts).
  const api = useMemo(() => createAdminApi(server), [server]);
  if (loading) {
    return (
      <main className="grid min-h-[50vh] place-items-center" aria-busy="true">
        <div role="status" className="flex items-center gap-3 text-muted-foreground">
          <span
            className="size-5 animate-spin rounded-full border-2 border-current border-t-transparent"
            aria-hidden
          />
          Loading…
        </div>
      </main>
    );
  }
  if (!isAdmin) return <NotAuthorised email={currentUser?.email} />;
  return (
    <AdminApiContext.Provider value={api}>
      <AdminDashboard
        currentUserId={currentUser?.id ?? null}
        sqlEditorUrl={sqlEditorUrl}
        {...(renderWidgetPreview && { renderWidgetPreview })}
      />
    </AdminApiContext.Provider>
  );
}
