import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeUser } from '../testing/fake-admin-api';
import { admin, setup as setupDashboard, users } from './admin-dashboard-harness';

const member = fakeUser('member@x.io', { email_confirmed_at: '2026-01-02T00:00:00.000Z' });
const pending = fakeUser('pending@x.io');
const setup = () => setupDashboard([admin, member, pending]);

const rowOf = async (email: string) => (await within(users()).findByText(email)).closest('li') as HTMLElement;

async function openMenu(user: ReturnType<typeof userEvent.setup>, email: string) {
  await rowOf(email);
  await user.click(screen.getByRole('button', { name: `Actions for ${email}` }));
  return screen.findByRole('menu');
}

describe('the dashboard’s account actions', () => {
  it('invites a user: the invitation is sent, the toast says so, the user is listed as unverified', async () => {
    const { api, user } = setup();
    const form = screen.getByRole('form', { name: 'Invite user' });
    await user.type(within(form).getByLabelText('Email to invite'), 'New@X.io');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.getByText('Invitation sent to new@x.io')).toBeVisible());
    expect(api.mails).toEqual([['invite', 'new@x.io']]);
    const row = (await within(users()).findByText('new@x.io')).closest('li') as HTMLElement;
    expect(within(row).getByText('Unverified')).toBeVisible();
    expect(within(form).getByLabelText('Email to invite')).toHaveValue('');
  });

  it('shows why an invitation was refused', async () => {
    const { api, user } = setup();
    const form = screen.getByRole('form', { name: 'Invite user' });
    await user.type(within(form).getByLabelText('Email to invite'), 'member@x.io');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    // Once, beside the form: what failed and the server's reason; no toast besides.
    expect(
      await screen.findByText(
        'Failed to invite user: A user with this email address has already been registered',
        { selector: 'p[aria-live]' },
      ),
    ).toBeVisible();
    expect(within(form).getByLabelText('Email to invite')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(/Failed to invite user/)).toHaveLength(1);
    expect(api.mails).toEqual([]);
  });

  it('sends password recovery and a magic link from the row’s menu, by keyboard', async () => {
    const { api, user } = setup();
    await rowOf('member@x.io');
    screen.getByRole('button', { name: 'Actions for member@x.io' }).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Send password recovery' })).toBeVisible();
    // The first item (View details) has focus; the next is the recovery link.
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(screen.getByText('Password recovery link sent to member@x.io')).toBeVisible());
    await within(await openMenu(user, 'member@x.io')).findByRole('menuitem', { name: 'Send magic link' });
    await user.click(screen.getByRole('menuitem', { name: 'Send magic link' }));
    await waitFor(() => expect(screen.getByText('Sign-in link sent to member@x.io')).toBeVisible());
    expect(api.mails).toEqual([
      ['recovery', 'member@x.io'],
      ['magic_link', 'member@x.io'],
    ]);
  });

  it('signs a user out everywhere only after confirming', async () => {
    const { api, user } = setup();
    await user.click(
      within(await openMenu(user, 'member@x.io')).getByRole('menuitem', { name: 'Sign out everywhere' }),
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.signedOut).toEqual([]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Actions for member@x.io' })).toHaveFocus(),
    );
    await user.click(
      within(await openMenu(user, 'member@x.io')).getByRole('menuitem', { name: 'Sign out everywhere' }),
    );
    dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(screen.getByText('member@x.io is signed out everywhere')).toBeVisible());
    expect(api.signedOut).toEqual([member.id]);
  });

  it('bans for a chosen length, shows the Banned badge, then unbans', async () => {
    const { api, user } = setup();
    await user.click(within(await openMenu(user, 'member@x.io')).getByRole('menuitem', { name: 'Ban user' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Ban user' });
    await user.selectOptions(within(dialog).getByLabelText('Ban length'), '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }));
    await waitFor(() => expect(screen.getByText('member@x.io is banned')).toBeVisible());
    expect(await within(await rowOf('member@x.io')).findByText(/^Banned until \w+/)).toBeVisible();
    const banned = api.users.find((u) => u.id === member.id);
    expect(new Date(banned?.banned_until as string).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    await user.click(
      within(await openMenu(user, 'member@x.io')).getByRole('menuitem', { name: 'Unban user' }),
    );
    const lift = await screen.findByRole('alertdialog', { name: 'Unban user' });
    await user.click(within(lift).getByRole('button', { name: 'Unban' }));
    await waitFor(() => expect(screen.getByText('member@x.io can sign in again')).toBeVisible());
    await waitFor(() => expect(within(users()).queryByText(/^Banned until/)).toBeNull());
  });

  it('does not offer ban or sign-out on the admin’s own row', async () => {
    const { user } = setup();
    const menu = await openMenu(user, 'admin@example.com');
    expect(within(menu).getByRole('menuitem', { name: 'Ban user' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(menu).getByRole('menuitem', { name: 'Sign out everywhere' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('opens the details panel with id, dates, role, factors and metadata', async () => {
    const { user } = setup();
    await user.click(
      within(await openMenu(user, 'member@x.io')).getByRole('menuitem', { name: 'View details' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'User details' });
    expect(dialog).toHaveTextContent(member.id);
    expect(dialog).toHaveTextContent('Last sign-inNever');
    expect(dialog).toHaveTextContent('Banned untilNot banned');
    // No factors and no passkeys.
    expect(await within(dialog).findAllByText('None')).toHaveLength(2);
    expect(within(dialog).getByText('App metadata')).toBeVisible();
    expect(dialog).toHaveTextContent('"provider": "email"');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Actions for member@x.io' })).toHaveFocus(),
    );
  });

  it('exports the searched list as CSV', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:users';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { api, user } = setup();
    await user.type(screen.getByLabelText('Search by email'), 'x.io');
    await waitFor(() => expect(within(users()).queryByText('admin@example.com')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(screen.getByText('Users exported')).toBeVisible());
    expect(api.exports).toEqual([{ status: 'all', search: 'x.io' }]);
    expect(created).toHaveLength(1);
    expect(click).toHaveBeenCalledTimes(1);
  });
});
