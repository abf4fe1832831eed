import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser } from '../testing/fake-admin-api';
import { admin, setup, users } from './admin-dashboard-harness';

describe('roles on the dashboard', () => {
  const roleFor = (email: string, { hidden = false } = {}) =>
    screen.getByRole('combobox', { name: `Role for ${email}`, hidden });

  it('sets a role: saving while the server works, then the refreshed row, a toast and the audit entry', async () => {
    const member = fakeUser('member@x.io', { email_confirmed_at: '2026-01-02T00:00:00.000Z' });
    const { user, api } = setup([admin, member, fakeUser('pending1@x.io')]);
    await within(users()).findByText('member@x.io');
    expect(roleFor('member@x.io')).toHaveValue('user');
    expect(
      within(roleFor('member@x.io'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['User', 'Operator', 'Admin']);
    // Named by aria-label: no second text with the email in the row (finding a row by its email stays exact).
    expect(within(users()).getAllByText(/member@x\.io/)).toHaveLength(1);
    // Unverified rows have the control too.
    expect(roleFor('pending1@x.io')).toHaveValue('user');

    let release = () => {};
    api.holdRoleChanges = new Promise<void>((resolve) => (release = resolve));
    await user.selectOptions(roleFor('member@x.io'), 'Operator');
    // Every change asks first, saying what the role can do; the dialog stays, busy, while the
    // server works.
    const askOperator = await screen.findByRole('alertdialog', { name: 'Make operator' });
    expect(askOperator).toHaveTextContent("member@x.io will use the server's provider key");
    await user.click(within(askOperator).getByRole('button', { name: 'Make operator' }));
    expect(roleFor('member@x.io', { hidden: true })).toHaveValue('operator');
    expect(roleFor('member@x.io', { hidden: true })).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const row = within(users()).getByText('member@x.io').closest('li') as HTMLElement;

    expect((await screen.findAllByText('member@x.io is now an Operator')).length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('member@x.io')).toBeEnabled());
    expect(roleFor('member@x.io')).toHaveValue('operator');
    expect(within(row).queryByRole('status')).toBeNull();
    expect(api.users.find((u) => u.email === 'member@x.io')?.role).toBe('operator');

    // Cancelled, nothing changes; confirmed, the Admin badge follows the role.
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

    // Both changes are in the audit log, in the Activity section.
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    const activity = await screen.findByRole('list', { name: 'Recent admin actions' });
    for (const role of ['Operator', 'Admin'])
      expect(
        await within(activity).findByText(
          (_, el) =>
            el?.tagName === 'LI' &&
            new RegExp(`changed the role of member@x\\.io to ${role}`).test(el.textContent ?? ''),
        ),
      ).toBeVisible();
  });

  it("disables the admin's own role control and says why", async () => {
    setup();
    await within(users()).findByText('admin@example.com');
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
    await within(users()).findByText('other-admin@x.io');
    await user.selectOptions(roleFor('other-admin@x.io'), 'User');
    const ask = await screen.findByRole('alertdialog', { name: 'Make user' });
    await user.click(within(ask).getByRole('button', { name: 'Make user' }));
    expect((await screen.findAllByText('Failed to change role')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('The last admin cannot lose the admin role.').length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('other-admin@x.io')).toHaveValue('admin'));
    expect(roleFor('other-admin@x.io')).toBeEnabled();
    expect(api.users.find((u) => u.email === 'other-admin@x.io')?.role).toBe('admin');
  });

  it("shows the server's refusal of a change to one's own role (400) when the page did not know it was theirs", async () => {
    const { user, api } = setup(undefined, null, null);
    await within(users()).findByText('admin@example.com');
    expect(roleFor('admin@example.com')).toBeEnabled();
    await user.selectOptions(roleFor('admin@example.com'), 'Operator');
    const ask = await screen.findByRole('alertdialog', { name: 'Make operator' });
    await user.click(within(ask).getByRole('button', { name: 'Make operator' }));
    expect((await screen.findAllByText('You cannot change your own role.')).length).toBeGreaterThan(0);
    await waitFor(() => expect(roleFor('admin@example.com')).toHaveValue('admin'));
    expect(api.users.find((u) => u.email === 'admin@example.com')?.role).toBe('admin');
  });
});
