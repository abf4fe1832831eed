import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { EngageApiError, type AdminApi } from '../api/client';
import { AdminApiContext } from '../api/queries';
import { createFakeAdminApi, fakeUser } from '../testing/fake-admin-api';
import { OutboxPanel } from './outbox-panel';

function setup(api: AdminApi) {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AdminApiContext.Provider value={api}>
        <OutboxPanel />
      </AdminApiContext.Provider>
      <Toaster />
    </QueryClientProvider>,
  );
  return { user };
}

describe('OutboxPanel', () => {
  it('lists the mails newest first with their links hidden; a reveal shows them (audited), and copies a link', async () => {
    const bob = fakeUser('bob@x.io');
    const api = createFakeAdminApi([bob]);
    await api.inviteUser('new@x.io');
    await api.sendRecovery(bob.id);
    const { user } = setup(api);

    const panel = screen.getByRole('region', { name: 'Mail outbox' });
    const items = within(
      await within(panel).findByRole('list', { name: 'Mails, newest first' }),
    ).getAllByRole('listitem');
    expect(
      items.map((i) => within(i).getByText(/Reset your password|You have been invited/).textContent),
    ).toEqual(['Reset your password', 'You have been invited']);
    expect(within(items[0] as HTMLElement).getByText(/To bob@x\.io/)).toBeVisible();
    const href = 'http://localhost:8787/auth/v1/verify?token=t1&type=recovery';
    // Hidden until revealed: a link signs in whoever opens it.
    expect(panel).not.toHaveTextContent('verify?token');
    expect(within(panel).queryByRole('button', { name: /^Copy link/ })).toBeNull();
    await user.click(
      within(items[0] as HTMLElement).getByRole('button', {
        name: 'Reveal links and code: Reset your password, for bob@x.io',
      }),
    );
    expect(await within(items[0] as HTMLElement).findByText(href)).toBeVisible();
    expect(api.revealed).toEqual(['mail-1']);
    // The other mail stays hidden.
    expect(items[1]).not.toHaveTextContent('verify?token');

    await user.click(within(panel).getByRole('button', { name: 'Copy link: Reset password, for bob@x.io' }));
    expect(await navigator.clipboard.readText()).toBe(href);
    await waitFor(() => expect(screen.getByText('Link copied')).toBeVisible());
  });

  it('says so when there is no mail', async () => {
    setup(createFakeAdminApi([]));
    await waitFor(() => expect(screen.getByText('No mail yet')).toBeVisible());
  });

  it('names SMTP as where mail goes', async () => {
    const api = createFakeAdminApi([]);
    setup({ ...api, outbox: async () => ({ delivery: 'smtp', mails: [] }) });
    await waitFor(() => expect(screen.getByText(/Mail is sent through SMTP/)).toBeVisible());
  });

  it('reports a refusal with the server’s message', async () => {
    const api = createFakeAdminApi([]);
    setup({
      ...api,
      outbox: async () => {
        throw new EngageApiError(403, 'forbidden', 'Admins only.');
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The outbox could not be loaded. Admins only.',
    );
  });
});
