import { EngageApiError, type AdminApi, type OAuthClient } from '../api/client';

let counter = 0;

/**
 * The OAuth client methods of the fake admin API, over its state, by the server's rules: a secret
 * only for a confidential client, and only in the create answer.
 */
export function fakeOAuthClients(state: {
  oauthClientList: OAuthClient[];
}): Pick<
  AdminApi,
  | 'oauthClients'
  | 'createOAuthClient'
  | 'updateOAuthClient'
  | 'regenerateOAuthClientSecret'
  | 'deleteOAuthClient'
> {
  const find = (id: string) => {
    const client = state.oauthClientList.find((c) => c.client_id === id);
    if (!client) throw new EngageApiError(404, 'oauth_client_not_found', 'OAuth client not found');
    return client;
  };
  return {
    oauthClients: async () => state.oauthClientList.map(({ client_secret: _secret, ...c }) => c),
    async createOAuthClient(input) {
      if (input.redirect_uris.length === 0)
        throw new EngageApiError(400, 'validation_failed', 'redirect_uris is required', 'redirect_uris');
      counter++;
      const client: OAuthClient = {
        client_id: `00000000-0000-4000-9000-${String(counter).padStart(12, '0')}`,
        client_name: input.client_name,
        client_type: input.client_type,
        redirect_uris: input.redirect_uris,
        created_at: new Date(Date.UTC(2026, 0, 3, 0, counter)).toISOString(),
        ...(input.client_type === 'confidential' ? { client_secret: `secret-${counter}` } : {}),
      };
      state.oauthClientList.unshift(client);
      return client;
    },
    async updateOAuthClient(id, input) {
      const client = find(id);
      client.client_name = input.client_name;
      client.redirect_uris = input.redirect_uris;
      const { client_secret: _secret, ...shown } = client;
      return shown;
    },
    async regenerateOAuthClientSecret(id) {
      const client = find(id);
      if (client.client_type !== 'confidential')
        throw new EngageApiError(400, 'validation_failed', 'Cannot regenerate secret for public client');
      counter++;
      client.client_secret = `secret-${counter}`;
      return { ...client };
    },
    async deleteOAuthClient(id) {
      if (!state.oauthClientList.some((c) => c.client_id === id))
        throw new EngageApiError(404, 'oauth_client_not_found', 'OAuth client not found');
      state.oauthClientList = state.oauthClientList.filter((c) => c.client_id !== id);
    },
  };
}
