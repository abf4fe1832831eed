import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AdminApiContext } from '../api/queries';
import { createFakeAdminApi, fakeUser } from '../testing/fake-admin-api';
import { UserPasskeys } from './user-passkeys';

describe("a user's passkeys in the details panel", () => {
  it('lists them and removes one after a confirmation (audited)', async () => {
    const member = fakeUser('member@x.io');
    const api = createFakeAdminApi([member]);
    api.passkeys.push(
      {
        userId: member.id,
        id: 'pk1',
        friendly_name: 'Laptop',
        created_at: '2026-11-01T10:00:00.000Z',
        last_used_at: null,
      },
      {
        userId: member.id,
        id: 'pk2',
        friendly_name: null,
        created_at: '2026-11-02T10:00:00.000Z',
        last_used_at: '2026-11-03T10:00:00.000Z',
      },
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AdminApiContext.Provider value={api}>
          <UserPasskeys userId={member.id} email={member.email} open />
        </AdminApiContext.Provider>
      </QueryClientProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Passkeys of member@x.io' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(list).toHaveTextContent(/Laptop.*last used never/);
    expect(list).toHaveTextContent('Unnamed passkey');

    await user.click(within(list).getByRole('button', { name: 'Remove passkey Laptop' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed the passkey “Laptop”.')).toBeInTheDocument();
    expect(api.passkeys.map((p) => p.id)).toEqual(['pk2']);
    expect((await api.audit())[0]).toMatchObject({ action: 'user.passkey_delete', detail: 'Laptop' });
  });
});
