import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { EngageApiError, type AdminApi } from '../api/client';
import { AdminApiContext } from '../api/queries';
import { createFakeAdminApi } from '../testing/fake-admin-api';
import { OAuthClientsPanel } from './oauth-clients-panel';

function setup(api: AdminApi) {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AdminApiContext.Provider value={api}>
        <OAuthClientsPanel />
      </AdminApiContext.Provider>
      <Toaster />
    </QueryClientProvider>,
  );
  return { user, panel: screen.getByRole('region', { name: 'OAuth clients' }) };
}

describe('OAuthClientsPanel', () => {
  it('creates a confidential client, shows its secret once, then only the list', async () => {
    const api = createFakeAdminApi([]);
    const { user, panel } = setup(api);
    expect(await within(panel).findByText('No OAuth clients yet')).toBeVisible();

    await user.type(within(panel).getByLabelText('Client name'), 'Partner app');
    await user.type(
      within(panel).getByLabelText('Redirect URIs (one per line)'),
      'https://partner.example/cb{enter}https://partner.example/cb2',
    );
    await user.click(within(panel).getByRole('button', { name: 'Create client' }));

    const secret = await within(panel).findByLabelText('Client secret of Partner app');
    expect(secret).toHaveValue('secret-' + api.oauthClientList[0]?.client_secret?.split('-')[1]);
    expect(within(panel).getByText(/Copy its secret now: it will not be shown again/)).toBeVisible();
    const list = await within(panel).findByRole('list', { name: 'OAuth clients' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Partner app (confidential)');
    expect(item).toHaveTextContent('Redirects to https://partner.example/cb, https://partner.example/cb2');
    // The list never carries the secret.
    expect(list).not.toHaveTextContent(/secret-/);

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(within(panel).queryByLabelText(/Client secret/)).toBeNull();
    expect(panel).not.toHaveTextContent(/secret-\d/);
  });

  it('says a public client has no secret, and refuses an empty form with a message', async () => {
    const { user, panel } = setup(createFakeAdminApi([]));
    await user.click(within(panel).getByRole('button', { name: 'Create client' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Give the client a name.');
    expect(within(panel).getByLabelText('Client name')).toHaveAttribute('aria-invalid', 'true');
    // Only the field that is wrong is marked.
    expect(within(panel).getByLabelText('Redirect URIs (one per line)')).not.toHaveAttribute('aria-invalid');

    await user.type(within(panel).getByLabelText('Client name'), 'Mobile');
    await user.type(within(panel).getByLabelText('Redirect URIs (one per line)'), 'myapp://callback');
    await user.click(within(panel).getByRole('radio', { name: 'Public (no secret, PKCE)' }));
    await user.click(within(panel).getByRole('button', { name: 'Create client' }));
    expect(await within(panel).findByText('Created Mobile. A public client has no secret.')).toBeVisible();
    expect(within(panel).queryByRole('alert')).toBeNull();
  });

  it('quotes a bad redirect line whole and marks only that field; nothing is sent', async () => {
    const api = createFakeAdminApi([]);
    const { user, panel } = setup(api);
    await user.type(within(panel).getByLabelText('Client name'), 'Partner app');
    await user.type(
      within(panel).getByLabelText('Redirect URIs (one per line)'),
      'https://partner.example/cb{enter}not a url',
    );
    await user.click(within(panel).getByRole('button', { name: 'Create client' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('"not a url" is not an address');
    expect(within(panel).getByLabelText('Redirect URIs (one per line)')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(within(panel).getByLabelText('Client name')).not.toHaveAttribute('aria-invalid');
    expect(api.oauthClientList).toHaveLength(0);
  });

  it('edits a client’s name and redirect URIs, and makes a new secret shown once', async () => {
    const api = createFakeAdminApi([]);
    await api.createOAuthClient({
      client_name: 'Old app',
      redirect_uris: ['https://old.example/cb'],
      client_type: 'confidential',
    });
    const first = api.oauthClientList[0]?.client_secret;
    const { user, panel } = setup(api);
    await user.click(await within(panel).findByRole('button', { name: 'Edit Old app' }));
    const form = within(panel).getByRole('form', { name: 'Edit Old app' });
    expect(within(form).getByLabelText('Redirect URIs (one per line)')).toHaveValue('https://old.example/cb');
    await user.clear(within(form).getByLabelText('Client name'));
    await user.type(within(form).getByLabelText('Client name'), 'New app');
    await user.type(
      within(form).getByLabelText('Redirect URIs (one per line)'),
      '{enter}https://new.example/cb',
    );
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const item = await within(panel).findByText(
      'Redirects to https://old.example/cb, https://new.example/cb',
    );
    expect(item).toBeVisible();
    expect(api.oauthClientList[0]?.client_name).toBe('New app');

    await user.click(within(panel).getByRole('button', { name: 'New secret for New app' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Make a new client secret' });
    expect(dialog).toHaveTextContent('The current one stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Make a new secret' }));
    const secret = await within(panel).findByLabelText('Client secret of New app');
    expect(secret).toHaveValue(api.oauthClientList[0]?.client_secret);
    expect(secret).not.toHaveValue(first);
    expect(within(panel).getByText(/A new secret for New app/)).toBeVisible();
  });

  it('deletes a client after confirmation and returns focus to the heading', async () => {
    const api = createFakeAdminApi([]);
    await api.createOAuthClient({
      client_name: 'Old app',
      redirect_uris: ['https://old.example/cb'],
      client_type: 'confidential',
    });
    const { user, panel } = setup(api);
    await user.click(await within(panel).findByRole('button', { name: 'Delete Old app' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete OAuth client' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(panel).findByText('No OAuth clients yet')).toBeVisible();
    expect(api.oauthClientList).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'OAuth clients' })).toHaveFocus();
  });

  it('with hosted Supabase, says where clients are managed', async () => {
    const api = createFakeAdminApi([]);
    api.oauthClients = async () => {
      throw new EngageApiError(404, 'not_found', 'Not found');
    };
    const { panel } = setup(api);
    expect(
      await within(panel).findByText(
        'With hosted Supabase, OAuth clients are managed in the Supabase project.',
      ),
    ).toBeVisible();
    expect(within(panel).queryByRole('form')).toBeNull();
  });
});
