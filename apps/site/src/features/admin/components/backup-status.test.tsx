import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BackupStatus } from '../api/client';
import { AdminApiContext } from '../api/queries';
import { createFakeAdminApi } from '../testing/fake-admin-api';
import { BackupStatusCard, formatInterval } from './backup-status';

const NOW = Date.parse('2026-11-25T12:00:00Z');

function show(status: BackupStatus) {
  const api = createFakeAdminApi([]);
  api.backupStatus = status;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AdminApiContext.Provider value={api}>
        <BackupStatusCard now={NOW} />
      </AdminApiContext.Provider>
    </QueryClientProvider>,
  );
}

const scheduled = (over: Partial<Extract<BackupStatus, { mode: 'scheduled' }>> = {}): BackupStatus => ({
  mode: 'scheduled',
  everyMs: 86_400_000,
  keep: 7,
  last: { at: '2026-11-25T06:00:00Z', bytes: 5_452_595, file: 'engage-backup-20261125T060000000Z.tar' },
  lastError: null,
  ...over,
});

describe('BackupStatusCard', () => {
  it('shows the time and size of the last scheduled backup, and the schedule', async () => {
    show(scheduled());
    const time = await screen.findByText((_, el) => el?.tagName === 'TIME');
    expect(time).toHaveAttribute('datetime', '2026-11-25T06:00:00Z');
    expect(screen.getByText(/5\.2 MB/)).toBeVisible();
    expect(screen.getByText('Every day, keeping the last 7.')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when none was written yet, and alerts on a failure or an overdue one', async () => {
    show(
      scheduled({ last: null, lastError: { at: '2026-11-25T11:00:00Z', message: 'ENOSPC: no space left' } }),
    );
    await waitFor(() => expect(screen.getByText(/No scheduled backup yet/)).toBeVisible());
    expect(screen.getByRole('alert')).toHaveTextContent(/The last backup failed .*ENOSPC: no space left/);
  });

  it('warns that an old backup is overdue', async () => {
    show(scheduled({ last: { at: '2026-11-20T06:00:00Z', bytes: 10, file: 'x' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The last backup is overdue');
  });

  it('shows the newest backup taken with npm run backup when none are scheduled', async () => {
    show({
      mode: 'off',
      last: { at: '2026-11-25T09:30:00Z', bytes: 5_452_595, file: '/srv/backups/engage.tar' },
    });
    await waitFor(() => expect(screen.getByText(/Last backup:/)).toBeVisible());
    expect(screen.getByText(/Last backup:/)).toHaveTextContent('5.2 MB');
    expect(screen.getByText(/Taken with npm run backup/)).toHaveTextContent('/srv/backups/engage.tar');
    expect(screen.queryByText(/No scheduled backups/)).toBeNull();
  });

  it('warns when scheduled backups are off and none was taken by hand', async () => {
    show({ mode: 'off', last: null });
    expect(
      await screen.findByText(/No scheduled backups: set BACKUP_DIR on the server, or run npm run backup/),
    ).toBeVisible();
  });

  it('points PostgreSQL users to pg_dump', async () => {
    show({ mode: 'postgres' });
    await waitFor(() => expect(screen.getByText(/back it up with pg_dump/)).toBeVisible());
  });

  it('words the interval', () => {
    expect(formatInterval(86_400_000)).toBe('day');
    expect(formatInterval(7 * 86_400_000)).toBe('7 days');
    expect(formatInterval(6 * 3_600_000)).toBe('6 hours');
    expect(formatInterval(30 * 60_000)).toBe('30 minutes');
  });
});
