import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminApiContext } from '../api/queries';
import { formatDate, formatDateTime } from '../lib/format';
import { createFakeAdminApi, fakeUser } from '../testing/fake-admin-api';
import { AdminDashboard } from './admin-dashboard';
import { AdminPage } from './admin-page';

const admin = fakeUser('admin@example.com', {
  email_confirmed_at: '2026-01-01T00:00:00.000Z',
  last_sign_in_at: '2026-01-05T10:00:00.000Z',
  is_admin: true,
});

function setup(
  users = [admin, fakeUser('pending1@x.io'), fakeUser('pending2@x.io')],
  editorUrl: string | null = null,
  // Who the page believes is signed in (the fake server always knows it is `admin`).
  currentUserId: string | null = admin.id,
) {
  const api = createFakeAdminApi(users, admin.id);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AdminApiContext.Provider value={api}>
          <AdminDashboard currentUserId={currentUserId} sqlEditorUrl={editorUrl} searchDelay={0} />
        </AdminApiContext.Provider>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { api, user };
}

const unverified = () => screen.getByRole('region', { name: /Unverified Users/ });
const verified = () => screen.getByRole('region', { name: /^Verified Users/ });

// Whole user journeys through a React tree in jsdom: seconds each on a busy two-core machine.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => vi.restoreAllMocks());

describe('AdminDashboard', () => {
  it('shows the title, the stat cards and both lists with their counts', async () => {
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
    expect(screen.getByText('Manage users, verify emails, and create new accounts')).toBeVisible();
    expect(await screen.findByLabelText('Total Users: 3')).toBeVisible();
    expect(screen.getByLabelText('Verified: 1')).toBeVisible();
    expect(screen.getByLabelText('Pending: 2')).toBeVisible();
    expect(screen.getByRole('img', { name: /Sign-ups per day/ })).toBeVisible();
    expect(await within(unverified()).findByText('pending1@x.io')).toBeVisible();
    expect(unverified()).toHaveAccessibleName('Unverified Users (2)');
    expect(verified()).toHaveAccessibleName('Verified Users (1)');
    const row = (await within(verified()).findByText('admin@example.com')).closest('li') as HTMLElement;
    expect(within(row).getByText('Verified')).toBeVisible();
    expect(row).toHaveTextContent(`Verified ${formatDate(admin.email_confirmed_at as string)}`);
    expect(row).toHaveTextContent(`Last login ${formatDateTime(admin.last_sign_in_at as string)}`);
    // The admin cannot delete itself.
    expect(within(row).getByRole('button', { name: /Delete/ })).toBeDisabled();
  });

  it('shows a verified date on every verified row, and a last login only when there is one', async () => {
    const never = fakeUser('never@x.io', { email_confirmed_at: '2026-02-03T12:00:00.000Z' });
    setup([admin, never]);
    const row = (await within(verified()).findByText('never@x.io')).closest('li') as HTMLElement;
    expect(within(row).getByText('Verified')).toBeVisible();
    expect(row).toHaveTextContent(`Verified ${formatDate('2026-02-03T12:00:00.000Z')}`);
    expect(row).not.toHaveTextContent(/Last login/);
  });

  it("says 'No verified users found' when there are none", async () => {
    setup([fakeUser('only@x.io')]);
    expect(await within(verified()).findByText('No verified users found')).toBeVisible();
  });

  it('creates a user, refusing a missing field with the SPEC message', async () => {
    const { user } = setup();
    // SPEC §5: both inputs are required fields, and the email input has the email type.
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toBeRequired();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    // The form's own alert says it, and it describes both fields.
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Please provide both email and password'),
    );
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      'Please provide both email and password',
    );
    // Said once: no toast repeats it.
    expect(screen.getAllByText('Please provide both email and password')).toHaveLength(1);

    await user.type(screen.getByLabelText('Email'), 'New@X.io');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User created successfully')).toBeVisible();
    expect(await within(verified()).findByText('new@x.io')).toBeVisible();
    expect(await screen.findByLabelText('Total Users: 4')).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it("shows 'Failed to create user' with the server's reason for a taken email", async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'pending1@x.io');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    // Once, in the form's alert: SPEC's words, then the server's reason; no toast besides.
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Failed to create user: A user with this email address has already been registered',
      ),
    );
    expect(screen.getAllByText(/Failed to create user/)).toHaveLength(1);
  });

  it('searches by email on the server, case-insensitively', async () => {
    const { user } = setup();
    await within(unverified()).findByText('pending1@x.io');
    await user.type(screen.getByPlaceholderText('Search by email...'), 'DING2');
    await waitFor(() => expect(within(unverified()).queryByText('pending1@x.io')).toBeNull());
    expect(within(unverified()).getByText('pending2@x.io')).toBeVisible();
    expect(unverified()).toHaveAccessibleName('Unverified Users (1)');
  });

  it('stops the search box at the length the server accepts', async () => {
    const { user } = setup();
    await within(unverified()).findByText('pending1@x.io');
    const box = screen.getByPlaceholderText('Search by email...');
    await user.click(box);
    await user.paste(`pending1${'x'.repeat(300)}`);
    expect((box as HTMLInputElement).value).toHaveLength(255);
    await waitFor(() => expect(within(unverified()).queryByText('pending1@x.io')).toBeNull());
    expect(unverified()).toHaveAccessibleName('Unverified Users (0)');
    expect(screen.queryByText('Failed to fetch users')).toBeNull();
  });

  it('selects, clears and generates SQL only for the selected users; Close hides the panel', async () => {
    const { user, api } = setup(undefined, 'https://supabase.com/dashboard/project/abc/sql/new');
    await within(unverified()).findByText('pending1@x.io');
    const generate = screen.getByRole('button', { name: 'Generate SQL' });
    expect(generate).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Select All' }));
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

  it('copies the SQL with the SPEC toasts for success and failure', async () => {
    const { user } = setup(undefined, 'https://supabase.com/dashboard/project/abc/sql/new');
    await within(unverified()).findByText('pending1@x.io');
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    await user.click(screen.getByRole('button', { name: 'Generate SQL' }));
    const write = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy SQL' }));
    expect(write).toHaveBeenCalledWith(expect.stringContaining('UPDATE auth.users'));
    expect(await screen.findByText('SQL query copied to clipboard!')).toBeVisible();
    write.mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy SQL' }));
    expect(await screen.findByText('Failed to copy SQL query')).toBeVisible();
  });

  it('with the embedded auth (no SQL editor to run it in), offers no Generate SQL: Verify selected verifies', async () => {
    const { user } = setup();
    await within(unverified()).findByText('pending1@x.io');
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.queryByRole('button', { name: 'Generate SQL' })).toBeNull();
    await user.click(within(unverified()).getByRole('button', { name: 'Verify selected' }));
    expect(await screen.findByText('Verified 2 users')).toBeVisible();
    const activity = screen.getByRole('list', { name: 'Recent admin actions' });
    await waitFor(() => expect(within(activity).getAllByText(/verified/)).toHaveLength(2));
    expect(await within(unverified()).findByText('No unverified users found')).toBeVisible();
    expect(await within(verified()).findByText('pending1@x.io')).toBeVisible();
  });

  it('with hosted Supabase, Open SQL Editor opens the dashboard in a new tab and copies the SQL', async () => {
    const url = 'https://supabase.com/dashboard/project/abc/sql/new';
    const { user } = setup(undefined, url);
    await within(unverified()).findByText('pending1@x.io');
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

  it('deletes a user after the confirmation, and keeps it on Cancel', async () => {
    const { user } = setup();
    await user.click(await within(unverified()).findByRole('button', { name: 'Delete pending1@x.io' }));
    let dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this user?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(unverified()).getByText('pending1@x.io')).toBeVisible();

    await user.click(within(unverified()).getByRole('button', { name: 'Delete pending1@x.io' }));
    dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeVisible();
    await waitFor(() => expect(within(unverified()).queryByText('pending1@x.io')).toBeNull());
    await waitFor(() => expect(screen.getByRole('heading', { name: /^Unverified Users/ })).toHaveFocus());
    expect(await screen.findByLabelText('Total Users: 2')).toBeVisible();
  });

  it("shows 'Failed to delete user' when the server refuses", async () => {
    const { user, api } = setup();
    await user.click(await within(unverified()).findByRole('button', { name: 'Delete pending1@x.io' }));
    api.users = api.users.filter((u) => u.email !== 'pending1@x.io'); // deleted elsewhere meanwhile
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user')).toBeVisible();
  });

  it('pages through many users', async () => {
    const many = Array.from({ length: 30 }, (_, i) => fakeUser(`bulk${String(i).padStart(2, '0')}@x.io`));
    const { user } = setup([admin, ...many], 'https://supabase.com/dashboard/project/abc/sql/new');
    expect(await within(unverified()).findByText('1–25 of 30')).toBeVisible();
    await user.click(within(unverified()).getByRole('button', { name: /Next/ }));
    expect(await within(unverified()).findByText('26–30 of 30')).toBeVisible();
    expect(within(unverified()).getAllByRole('listitem')).toHaveLength(5);
    await user.click(within(unverified()).getByRole('button', { name: /Previous/ }));
    expect(await within(unverified()).findByText('1–25 of 30')).toBeVisible();
    // Select All takes the page, then offers every match, as one long list would have had.
    await user.click(within(unverified()).getByRole('button', { name: 'Select All' }));
    expect(within(unverified()).getByRole('button', { name: 'Clear Selection (25)' })).toBeVisible();
    await user.click(within(unverified()).getByRole('button', { name: 'Select all 30 unverified users' }));
    expect(await within(unverified()).findByRole('button', { name: 'Clear Selection (30)' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Generate SQL' }));
    expect(
      (screen.getByLabelText('Generated SQL') as HTMLTextAreaElement).value.match(/'[0-9a-f-]{36}'/g),
    ).toHaveLength(30);
  });

  it("shows 'Failed to fetch users' when the lists cannot load, and refreshes on demand", async () => {
    const { user, api } = setup();
    await within(unverified()).findByText('pending1@x.io');
    api.failLists = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findAllByText('Failed to fetch users')).length).toBeGreaterThan(0);
    api.failLists = false;
    await user.click(within(unverified()).getByRole('button', { name: 'Try again' }));
    expect(await within(unverified()).findByText('pending1@x.io')).toBeVisible();
  });
});

describe('roles on the dashboard', () => {
  const roleFor = (email: string) => screen.getByRole('combobox', { name: `Role for ${email}` });

  it('sets a role: saving while the server works, then the refreshed row, a toast and the audit entry', async () => {
    const member = fakeUser('member@x.io', { email_confirmed_at: '2026-01-02T00:00:00.000Z' });
    const { user, api } = setup([admin, member, fakeUser('pending1@x.io')]);
    await within(verified()).findByText('member@x.io');
    expect(roleFor('member@x.io')).toHaveValue('user');
    expect(
      within(roleFor('member@x.io'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['User', 'Operator', 'Admin']);
    // Named by aria-label: no second text with the email in the row (finding a row by its email stays exact).
    expect(within(verified()).getAllByText(/member@x\.io/)).toHaveLength(1);
    // Unverified rows have the control too.
    expect(roleFor('pending1@x.io')).toHaveValue('user');

    let release = () => {};
    api.holdRoleChanges = new Promise<void>((resolve) => (release = resolve));
    await user.selectOptions(roleFor('member@x.io'), 'Operator');
    const row = within(verified()).getByText('member@x.io').closest('li') as HTMLElement;
    expect(within(row).getByRole('status')).toHaveTextContent('Saving…');
    expect(roleFor('member@x.io')).toBeDisabled();
    expect(roleFor('member@x.io')).toHaveValue('operator');
    release();

    expect((await screen.findAllByText('member@x.io is now an Operator')).length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('member@x.io')).toBeEnabled());
    expect(roleFor('member@x.io')).toHaveValue('operator');
    expect(within(row).queryByRole('status')).toBeNull();
    expect(api.users.find((u) => u.email === 'member@x.io')?.role).toBe('operator');
    const activity = screen.getByRole('list', { name: 'Recent admin actions' });
    expect(
      await within(activity).findByText(
        (_, el) =>
          el?.tagName === 'LI' && /changed the role of member@x\.io to Operator/.test(el.textContent ?? ''),
      ),
    ).toBeVisible();

    // Admin asks first: cancelled, nothing changes; confirmed, the Admin badge follows the role.
    await user.selectOptions(roleFor('member@x.io'), 'Admin');
    let ask = await screen.findByRole('alertdialog', { name: 'Make admin' });
    expect(ask).toHaveTextContent('member@x.io will manage every account');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(roleFor('member@x.io')).toHaveValue('operator');
    expect(roleFor('member@x.io')).toHaveFocus();
    expect(api.users.find((u) => u.email === 'member@x.io')?.role).toBe('operator');
    await user.selectOptions(roleFor('member@x.io'), 'Admin');
    ask = await screen.findByRole('alertdialog', { name: 'Make admin' });
    await user.click(within(ask).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(within(row).getByText('Admin', { selector: ':not(option)' })).toBeVisible());
    expect(roleFor('member@x.io')).toHaveValue('admin');
  });

  it("disables the admin's own role control and says why", async () => {
    setup();
    await within(verified()).findByText('admin@example.com');
    const own = roleFor('admin@example.com');
    expect(own).toHaveValue('admin');
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription(/You cannot change your own role/);
    expect(roleFor('pending1@x.io')).toBeEnabled();
  });

  it("shows the server's message when it refuses to remove the last admin (409), and keeps the row", async () => {
    // Signed in as an admin the list no longer holds (deleted by the other admin meanwhile).
    const other = fakeUser('other-admin@x.io', {
      email_confirmed_at: '2026-01-02T00:00:00.000Z',
      is_admin: true,
    });
    const { user, api } = setup([other, fakeUser('pending1@x.io')], null, 'gone');
    await within(verified()).findByText('other-admin@x.io');
    await user.selectOptions(roleFor('other-admin@x.io'), 'User');
    expect((await screen.findAllByText('Failed to change role')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('The last admin cannot lose the admin role.').length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('other-admin@x.io')).toHaveValue('admin'));
    expect(roleFor('other-admin@x.io')).toBeEnabled();
    expect(api.users.find((u) => u.email === 'other-admin@x.io')?.role).toBe('admin');
  });

  it("shows the server's refusal of a change to one's own role (400) when the page did not know it was theirs", async () => {
    const { user, api } = setup(undefined, null, null);
    await within(verified()).findByText('admin@example.com');
    expect(roleFor('admin@example.com')).toBeEnabled();
    await user.selectOptions(roleFor('admin@example.com'), 'Operator');
    expect((await screen.findAllByText('You cannot change your own role.')).length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('admin@example.com')).toHaveValue('admin'));
    expect(api.users.find((u) => u.email === 'admin@example.com')?.role).toBe('admin');
  });
});

describe('AdminPage', () => {
  const render_ = (props: Partial<Parameters<typeof AdminPage>[0]>) =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <AdminPage
            loading={false}
            isAdmin={false}
            currentUser={{ id: 'u', email: 'someone@x.io' }}
            getAccessToken={async () => 'token'}
            sqlEditorUrl={null}
            {...props}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it('shows a not-authorised screen to a signed-in non-admin, and no dashboard', () => {
    render_({});
    expect(screen.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
    expect(screen.getByText(/signed in as someone@x.io/)).toBeVisible();
    expect(screen.queryByText('User Management Dashboard')).toBeNull();
  });

  it('shows a loading state while the session loads', () => {
    render_({ loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByRole('heading', { name: 'Not authorised' })).toBeNull();
  });
});
