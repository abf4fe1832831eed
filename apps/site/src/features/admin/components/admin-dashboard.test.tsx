import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createEngageApi } from '@/lib/engage-api';
import { formatDate, formatDateTime } from '../lib/format';
import { fakeUser } from '../testing/fake-admin-api';
import { admin, setup, showOnly, users } from './admin-dashboard-harness';
import { AdminPage } from './admin-page';

describe('AdminDashboard', () => {
  it('opens on the overview: the title, the stat cards and the chart', async () => {
    setup(undefined, null, admin.id, 'overview');
    expect(screen.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
    expect(screen.getByText('Manage users, verify emails, and create new accounts')).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Overview', selected: true })).toBeVisible();
    expect(await screen.findByLabelText('Total Users: 3')).toBeVisible();
    expect(screen.getByLabelText('Verified: 1')).toBeVisible();
    expect(screen.getByLabelText('Pending: 2')).toBeVisible();
    expect(screen.getByRole('img', { name: /Sign-ups per day/ })).toBeVisible();
    // Only the open section is there: no user list, no forms.
    expect(screen.queryByRole('region', { name: /^Users/ })).toBeNull();
  });

  it('names its sections in the URL: a tab changes ?section=, and the URL opens its section', async () => {
    const { user } = setup(undefined, null, admin.id, 'activity');
    expect(screen.getByRole('tab', { name: 'Activity', selected: true })).toBeVisible();
    expect(await screen.findByText('No admin actions yet')).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin?section=users');
    expect(await within(users()).findByText('pending1@x.io')).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin$/);
  });

  it('lists every user in one list, and narrows it by status with its count', async () => {
    const { user } = setup();
    expect(await within(users()).findByText('pending1@x.io')).toBeVisible();
    expect(users()).toHaveAccessibleName('Users (3)');
    await showOnly(user, 'Unverified');
    await waitFor(() => expect(users()).toHaveAccessibleName('Users (2)'));
    expect(within(users()).queryByText('admin@example.com')).toBeNull();
    await showOnly(user, 'Verified');
    await waitFor(() => expect(users()).toHaveAccessibleName('Users (1)'));
    const pending = (await within(users()).findByText('admin@example.com')).closest('li') as HTMLElement;
    expect(pending).toBeVisible();
    await showOnly(user, 'All users');
    const unconfirmed = (await within(users()).findByText('pending1@x.io')).closest('li') as HTMLElement;
    expect(within(unconfirmed).getByText('Unverified')).toBeVisible();
    expect(within(unconfirmed).getByRole('checkbox', { name: 'Select pending1@x.io' })).toBeVisible();
    const row = (await within(users()).findByText('admin@example.com')).closest('li') as HTMLElement;
    expect(within(row).getByText('Verified')).toBeVisible();
    expect(row).toHaveTextContent(`Verified ${formatDate(admin.email_confirmed_at as string)}`);
    expect(row).toHaveTextContent(`Last login ${formatDateTime(admin.last_sign_in_at as string)}`);
    // The admin cannot delete itself.
    expect(within(row).getByRole('button', { name: /Delete/ })).toBeDisabled();
  });

  it('shows a verified date on every verified row, and a last login only when there is one', async () => {
    const never = fakeUser('never@x.io', { email_confirmed_at: '2026-02-03T12:00:00.000Z' });
    setup([admin, never]);
    const row = (await within(users()).findByText('never@x.io')).closest('li') as HTMLElement;
    expect(within(row).getByText('Verified')).toBeVisible();
    expect(row).toHaveTextContent(`Verified ${formatDate('2026-02-03T12:00:00.000Z')}`);
    expect(row).not.toHaveTextContent(/Last login/);
  });

  it('keeps the chosen status through a new search', async () => {
    const { user } = setup();
    await within(users()).findByText('pending1@x.io');
    await showOnly(user, 'Unverified');
    await user.type(screen.getByPlaceholderText('Search by email...'), 'ding2');
    await waitFor(() => expect(users()).toHaveAccessibleName('Users (1)'));
    expect(within(users()).getByLabelText('Show')).toHaveValue('unverified');
    expect(within(users()).getByText('pending2@x.io')).toBeVisible();
  });

  it("says 'No verified users found' when there are none", async () => {
    const { user } = setup([fakeUser('only@x.io')]);
    await within(users()).findByText('only@x.io');
    await showOnly(user, 'Verified');
    expect(await within(users()).findByText('No verified users found')).toBeVisible();
  });

  it('creates a user, refusing a missing field with the message', async () => {
    const { user } = setup();
    // both inputs are required fields, and the email input has the email type.
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
    await waitFor(() => expect(screen.getByText('User created successfully')).toBeVisible());
    expect(await within(users()).findByText('new@x.io')).toBeVisible();
    expect(users()).toHaveAccessibleName('Users (4)');
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it("shows 'Failed to create user' with the server's reason for a taken email", async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'pending1@x.io');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    // Once, in the form's alert: the words, then the server's reason; no toast besides.
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Failed to create user: A user with this email address has already been registered',
      ),
    );
    expect(screen.getAllByText(/Failed to create user/)).toHaveLength(1);
  });

  it('searches by email on the server, case-insensitively', async () => {
    const { user } = setup();
    await within(users()).findByText('pending1@x.io');
    await user.type(screen.getByPlaceholderText('Search by email...'), 'DING2');
    await waitFor(() => expect(within(users()).queryByText('pending1@x.io')).toBeNull());
    expect(within(users()).getByText('pending2@x.io')).toBeVisible();
    expect(users()).toHaveAccessibleName('Users (1)');
  });

  it('stops the search box at the length the server accepts', async () => {
    const { user } = setup();
    await within(users()).findByText('pending1@x.io');
    const box = screen.getByPlaceholderText('Search by email...');
    await user.click(box);
    await user.paste(`pending1${'x'.repeat(300)}`);
    expect((box as HTMLInputElement).value).toHaveLength(255);
    await waitFor(() => expect(within(users()).queryByText('pending1@x.io')).toBeNull());
    expect(users()).toHaveAccessibleName('Users (0)');
    expect(screen.queryByText('Failed to fetch users')).toBeNull();
  });

  it('deletes a user after the confirmation, and keeps it on Cancel', async () => {
    const { user } = setup();
    await user.click(await within(users()).findByRole('button', { name: 'Delete pending1@x.io' }));
    let dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this user?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(users()).getByText('pending1@x.io')).toBeVisible();

    await user.click(within(users()).getByRole('button', { name: 'Delete pending1@x.io' }));
    dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText('User deleted successfully')).toBeVisible());
    await waitFor(() => expect(within(users()).queryByText('pending1@x.io')).toBeNull());
    await waitFor(() => expect(screen.getByRole('heading', { name: /^Users/ })).toHaveFocus());
    expect(users()).toHaveAccessibleName('Users (2)');
  });

  it("shows 'Failed to delete user' when the server refuses", async () => {
    const { user, api } = setup();
    await user.click(await within(users()).findByRole('button', { name: 'Delete pending1@x.io' }));
    api.users = api.users.filter((u) => u.email !== 'pending1@x.io'); // deleted elsewhere meanwhile
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText('Failed to delete user')).toBeVisible());
  });

  it('pages through many users', async () => {
    const many = Array.from({ length: 30 }, (_, i) => fakeUser(`bulk${String(i).padStart(2, '0')}@x.io`));
    const { user } = setup([admin, ...many], 'https://supabase.com/dashboard/project/abc/sql/new');
    await within(users()).findByText('1–25 of 31');
    await showOnly(user, 'Unverified');
    expect(await within(users()).findByText('1–25 of 30')).toBeVisible();
    await user.click(within(users()).getByRole('button', { name: /Next/ }));
    expect(await within(users()).findByText('26–30 of 30')).toBeVisible();
    expect(within(users()).getAllByRole('listitem')).toHaveLength(5);
    await user.click(within(users()).getByRole('button', { name: /Previous/ }));
    expect(await within(users()).findByText('1–25 of 30')).toBeVisible();
    // Select All takes the page, then offers every match, as one long list would have had.
    await user.click(within(users()).getByRole('button', { name: 'Select unverified on this page' }));
    expect(within(users()).getByRole('button', { name: 'Clear Selection (25)' })).toBeVisible();
    await user.click(within(users()).getByRole('button', { name: 'Select all 30 unverified users' }));
    expect(await within(users()).findByRole('button', { name: 'Clear Selection (30)' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Generate SQL' }));
    expect(
      (screen.getByLabelText('Generated SQL') as HTMLTextAreaElement).value.match(/'[0-9a-f-]{36}'/g),
    ).toHaveLength(30);
  });

  it("shows 'Failed to fetch users' when the lists cannot load, and refreshes on demand", async () => {
    const { user, api } = setup();
    await within(users()).findByText('pending1@x.io');
    api.failLists = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findAllByText('Failed to fetch users')).length).toBeGreaterThan(0);
    api.failLists = false;
    await user.click(within(users()).getByRole('button', { name: 'Try again' }));
    expect(await within(users()).findByText('pending1@x.io')).toBeVisible();
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
            server={createEngageApi({ getAccessToken: async () => 'token' })}
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
