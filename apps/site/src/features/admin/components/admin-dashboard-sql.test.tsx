import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setup, showOnly, users } from './admin-dashboard-harness';

describe('AdminDashboard SQL generator', () => {
  it('selects, clears and generates SQL only for the selected users; Close hides the panel', async () => {
    const { user, api } = setup(undefined, 'https://supabase.com/dashboard/project/abc/sql/new');
    await within(users()).findByText('pending1@x.io');
    const generate = screen.getByRole('button', { name: 'Generate SQL' });
    expect(generate).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Select unverified on this page' }));
    expect(screen.getByRole('button', { name: 'Clear Selection (2)' })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select pending1@x.io' }));
    expect(screen.getByRole('button', { name: 'Clear Selection (1)' })).toBeVisible();
    await user.click(generate);
    const panel = screen.getByRole('region', { name: 'SQL Query Generator' });
    const sql = within(panel).getByLabelText('Generated SQL') as HTMLTextAreaElement;
    const p2 = api.users.find((u) => u.email === 'pending2@x.io')?.id as string;
    const p1 = api.users.find((u) => u.email === 'pending1@x.io')?.id as string;
    expect(sql.value).toContain(`WHERE id = '${p2}'`);
    expect(sql.value).not.toContain(p1);
    expect(sql).toHaveAttribute('readonly');
    expect(sql).toHaveFocus();
    expect(within(panel).getByText(/click the refresh button/)).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'SQL Query Generator' })).toBeNull();
    // The panel needs its flag and a selection: clearing the selection hides it too.
    await user.click(generate);
    await user.click(screen.getByRole('button', { name: 'Clear Selection (1)' }));
    expect(screen.queryByRole('region', { name: 'SQL Query Generator' })).toBeNull();
  });

  it('copies the SQL with the toasts for success and failure', async () => {
    const { user } = setup(undefined, 'https://supabase.com/dashboard/project/abc/sql/new');
    await within(users()).findByText('pending1@x.io');
    await user.click(screen.getByRole('button', { name: 'Select unverified on this page' }));
    await user.click(screen.getByRole('button', { name: 'Generate SQL' }));
    const write = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy SQL' }));
    expect(write).toHaveBeenCalledWith(expect.stringContaining('UPDATE auth.users'));
    await waitFor(() => expect(screen.getByText('SQL query copied to clipboard!')).toBeVisible());
    write.mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy SQL' }));
    await waitFor(() => expect(screen.getByText('Failed to copy SQL query')).toBeVisible());
  });

  it('with the embedded auth (no SQL editor to run it in), offers no Generate SQL: Verify selected verifies', async () => {
    const { user } = setup();
    await within(users()).findByText('pending1@x.io');
    await user.click(screen.getByRole('button', { name: 'Select unverified on this page' }));
    expect(screen.queryByRole('button', { name: 'Generate SQL' })).toBeNull();
    await user.click(within(users()).getByRole('button', { name: 'Verify selected' }));
    await waitFor(() => expect(screen.getByText('Verified 2 users')).toBeVisible());
    const row = (await within(users()).findByText('pending1@x.io')).closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByText('Verified')).toBeVisible());
    await showOnly(user, 'Unverified');
    expect(await within(users()).findByText('No unverified users found')).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    const activity = await screen.findByRole('list', { name: 'Recent admin actions' });
    await waitFor(() => expect(within(activity).getAllByText(/verified/)).toHaveLength(2));
  });

  it('with hosted Supabase, Open SQL Editor opens the dashboard in a new tab and copies the SQL', async () => {
    const url = 'https://supabase.com/dashboard/project/abc/sql/new';
    const { user } = setup(undefined, url);
    await within(users()).findByText('pending1@x.io');
    await user.click(screen.getByRole('checkbox', { name: 'Select pending1@x.io' }));
    await user.click(screen.getByRole('button', { name: 'Generate SQL' }));
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const write = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Open SQL Editor' }));
    expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
    expect(write).toHaveBeenCalledWith(expect.stringContaining('UPDATE auth.users'));
    // sonner keeps earlier tests' toasts in its global store, so the text may appear more than once.
    expect((await screen.findAllByText('SQL query copied to clipboard!')).length).toBeGreaterThan(0);
  });
});
