import { USER_SEARCH_MAX_LENGTH, type UserStatus } from '@engage/http-contract';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw, Search } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { adminKeys, useAdminStats, useVerifyUsers } from '../api/queries';
import { BackupStatusCard } from './backup-status';
import { CreateUserForm } from './create-user-form';
import { EmbedPanel } from './embed-panel';
import { ExportCsvButton } from './export-csv-button';
import { InviteUserForm } from './invite-user-form';
import { OAuthClientsPanel } from './oauth-clients-panel';
import { OutboxPanel } from './outbox-panel';
import { RecentActivity } from './recent-activity';
import { SignupsChart } from './signups-chart';
import { SqlGeneratorPanel } from './sql-generator-panel';
import { StatCards } from './stat-cards';
import { UsersPanel } from './users-panel';

export interface AdminDashboardProps {
  /** The signed-in admin, who cannot delete itself. */
  currentUserId: string | null;
  /** The hosted project's SQL editor, or null for the embedded auth. */
  sqlEditorUrl: string | null;
  renderWidgetPreview?: (assistantId: string) => ReactNode;
  /** How long typing pauses before the search runs, in ms. */
  searchDelay?: number;
}

/** Waits for typing to pause before a value is used (one server search per pause, not per key). */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The dashboard's sections, in order; the first is where /admin opens. */
export const DASHBOARD_SECTIONS = [
  { value: 'overview', label: 'Overview' },
  { value: 'users', label: 'Users' },
  { value: 'activity', label: 'Activity' },
  { value: 'mail', label: 'Mail outbox' },
  { value: 'apps', label: 'OAuth apps' },
  { value: 'embed', label: 'Embed' },
] as const;
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number]['value'];

const isSection = (value: string | null): value is DashboardSection =>
  DASHBOARD_SECTIONS.some((s) => s.value === value);

/** The section the URL names (`?section=`), Overview for none or an unknown one; choosing one replaces it. */
function useSection(): [DashboardSection, (next: DashboardSection) => void] {
  const [params, setParams] = useSearchParams();
  const named = params.get('section');
  const section = isSection(named) ? named : 'overview';
  const setSection = (next: DashboardSection) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'overview') updated.delete('section');
        else updated.set('section', next);
        return updated;
      },
      { replace: true },
    );
  return [section, setSection];
}

/** The users' search box, with Refresh and the CSV export of what it finds. */
function UserSearch(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
  /** The search as sent (debounced, trimmed), for the export. */
  search: string;
}) {
  const { id, value, onChange, onRefresh, search } = props;
  // On a phone the box takes its own row, so its placeholder is not cut by the buttons.
  return (
    <search className="flex flex-wrap gap-2" aria-label="Users">
      <div className="relative w-full sm:w-auto sm:flex-1">
        <Search
          className="pointer-events-none absolute top-2.5 left-3 size-4 text-muted-foreground"
          aria-hidden
        />
        <label htmlFor={id} className="sr-only">
          Search by email
        </label>
        <Input
          id={id}
          type="search"
          placeholder="Search by email..."
          className="pl-9"
          // The server refuses longer searches; the box stops there instead of spinning to an error.
          maxLength={USER_SEARCH_MAX_LENGTH}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
      <Button variant="outline" onClick={onRefresh} aria-label="Refresh" title="Refresh">
        <RefreshCw aria-hidden />
      </Button>
      <ExportCsvButton search={search} />
    </search>
  );
}

/** The User Management Dashboard, backed by /api/admin, in sections. */
export function AdminDashboard({
  currentUserId,
  sqlEditorUrl,
  searchDelay = 300,
  renderWidgetPreview,
}: AdminDashboardProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), searchDelay);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [showSql, setShowSql] = useState(false);
  const stats = useAdminStats();
  const verify = useVerifyUsers();
  const [section, setSection] = useSection();
  // Kept here: a new search (which starts the list afresh) keeps the chosen status.
  const [status, setStatus] = useState<UserStatus>('all');

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });

  async function verifySelected() {
    const ids = [...selected];
    try {
      const changed = await verify.mutateAsync(ids);
      setSelected((current) => new Set([...current].filter((x) => !changed.includes(x))));
      if (changed.length === 0) toast.info('The selected users were already verified');
      else toast.success(`Verified ${changed.length} user${changed.length === 1 ? '' : 's'}`);
    } catch (error) {
      toast.error('Failed to verify users', {
        description: error instanceof Error ? error.message : undefined,
      });
    }
  }

  const users = (
    <>
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <CreateUserForm />
        <InviteUserForm />
      </div>

      <UserSearch
        id={`${id}-search`}
        value={searchText}
        onChange={setSearchText}
        onRefresh={() => void refresh()}
        search={search}
      />

      <UsersPanel
        key={`users ${search}`}
        search={search}
        status={status}
        onStatusChange={setStatus}
        currentUserId={currentUserId}
        selected={selected}
        onSelectedChange={setSelected}
        onGenerateSql={sqlEditorUrl ? () => setShowSql(true) : undefined}
        onVerifySelected={() => void verifySelected()}
        verifying={verify.isPending}
      />

      {showSql && selected.size > 0 && (
        <SqlGeneratorPanel
          ids={[...selected]}
          editorUrl={sqlEditorUrl}
          onClose={() => setShowSql(false)}
          onVerify={() => void verifySelected()}
          verifying={verify.isPending}
        />
      )}
    </>
  );

  const content: Record<DashboardSection, ReactNode> = {
    overview: (
      // Top-aligned: the stat cards keep their own height beside the taller chart.
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr] lg:items-start">
        <div className="grid gap-4">
          <StatCards stats={stats.data} />
          <BackupStatusCard />
        </div>
        {stats.data && <SignupsChart days={stats.data.signupsPerDay} />}
      </div>
    ),
    users,
    activity: <RecentActivity />,
    mail: <OutboxPanel />,
    apps: <OAuthClientsPanel />,
    embed: <EmbedPanel {...(renderWidgetPreview && { renderPreview: renderWidgetPreview })} />,
  };

  return (
    // One column no wider than the page (minmax(0, 1fr)): a long address in a row can no longer
    // widen the whole dashboard past a phone's screen.
    <main className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-8">
      <header className="grid gap-1">
        <h1 className="text-3xl font-semibold tracking-tight">User Management Dashboard</h1>
        <p className="text-muted-foreground">Manage users, verify emails, and create new accounts</p>
      </header>
      {/* Sections a URL names (/admin?section=users): a link, a reload or Back opens the same one. */}
      <Tabs value={section} onValueChange={(next) => setSection(next as DashboardSection)}>
        <TabsList aria-label="Dashboard sections" className="h-auto flex-wrap justify-start">
          {DASHBOARD_SECTIONS.map((s) => (
            // Fixed height, natural width: on a phone the tabs wrap into rows instead of overflowing.
            <TabsTrigger key={s.value} value={s.value} className="h-8 flex-none">
              {s.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {DASHBOARD_SECTIONS.map((s) => (
          <TabsContent key={s.value} value={s.value} className="grid grid-cols-[minmax(0,1fr)] gap-6">
            {content[s.value]}
          </TabsContent>
        ))}
      </Tabs>
    </main>
  );
}
