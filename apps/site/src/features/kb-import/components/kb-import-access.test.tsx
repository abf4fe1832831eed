import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../lib/storage';
import { providerFetch } from '../testing/fake-fetch';
import { createFakeProvider } from '../testing/fake-provider';
import { KbImportAccess } from './kb-import-access';

const BASE = 'https://provider.test';
const PROXY = 'https://site.test/api/provider';

vi.setConfig({ testTimeout: 30_000 });
// A typed key is used once it has settled, a second after the last keystroke.
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => {
  // jsdom lacks what Radix Select uses for pointer handling and scrolling.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

/**
 * The provider both ways: straight (with a typed key) and through the proxy, which answers 403
 * operator_required while `proxyRefuses` is set, as the server does for a user without the role.
 */
function network() {
  const provider = createFakeProvider({ processingMs: 0 });
  const direct = providerFetch(provider.api, BASE);
  const proxied = providerFetch(provider.api, PROXY);
  const state = { proxyRefuses: false, refused: 0 };
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(PROXY)) {
      if (state.proxyRefuses) {
        state.refused++;
        return new Response(
          JSON.stringify({ error: 'operator_required', message: 'The operator role is required.' }),
          { status: 403, headers: { 'Content-Type': 'application/json' } },
        );
      }
      return proxied.fetch(input, init);
    }
    return direct.fetch(input, init);
  };
  return { fetch: fetchImpl, direct: direct.calls, proxied: proxied.calls, state };
}

function renderAccess(
  role: unknown,
  options: { serverHoldsPrivateKey?: boolean; refreshRole?: () => Promise<unknown> } = {},
) {
  const net = network();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <KbImportAccess
        userRole={role}
        email="someone@x.io"
        providerName="Vapi"
        providerBaseUrl={BASE}
        proxyBaseUrl={PROXY}
        serverHoldsPrivateKey={options.serverHoldsPrivateKey ?? true}
        getAccessToken={async () => 'user-access-token'}
        storage={memoryStorage()}
        fetch={net.fetch}
        {...(options.refreshRole && { refreshRole: options.refreshRole })}
      />
    </QueryClientProvider>,
  );
  return { net, user };
}

const toolHeading = () =>
  screen.queryByRole('heading', { level: 1, name: /Knowledge Base Bulk Import Tool/ });
const noAccessHeading = () => screen.queryByRole('heading', { level: 1, name: 'Operator access needed' });

describe('the import tool by role', () => {
  it.each(['operator', 'admin'])('an %s uses the server-held key through the proxy', async (role) => {
    const { net } = renderAccess(role);
    expect(toolHeading()).toBeVisible();
    expect(screen.getByLabelText('Private API key')).toBeDisabled();
    await waitFor(() => expect(net.proxied.length).toBeGreaterThan(0));
    expect(net.proxied.every((c) => c.authorization === 'Bearer user-access-token')).toBe(true);
    expect(net.direct).toEqual([]);
  });

  it('a user without the role sees how to get access, not the tool, and nothing is requested', async () => {
    const { net } = renderAccess(undefined);
    expect(noAccessHeading()).toBeVisible();
    expect(toolHeading()).toBeNull();
    expect(
      screen.getByText(/signed in as someone@x.io, which does not have the operator role/),
    ).toBeVisible();
    expect(screen.getByText(/Ask an administrator to give your account the Operator role/)).toBeVisible();
    expect(screen.getByText(/never sent to or stored on our server/)).toBeVisible();
    expect(net.proxied).toEqual([]);
    expect(net.direct).toEqual([]);
  });

  it('Check again lets in a user an administrator has just made an operator, without signing out', async () => {
    const refreshRole = vi
      .fn<() => Promise<unknown>>()
      .mockResolvedValueOnce('user')
      .mockResolvedValueOnce('operator');
    const { net, user } = renderAccess('user', { refreshRole });
    expect(screen.getByText(/press Check again: no need to sign out/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Your account does not have the Operator role yet.')).toBeVisible();
    expect(noAccessHeading()).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(toolHeading()).toBeVisible());
    expect(screen.getByLabelText('Private API key')).toBeDisabled();
    await waitFor(() => expect(net.proxied.length).toBeGreaterThan(0));
    expect(refreshRole).toHaveBeenCalledTimes(2);
  });

  it('"Use my own private key" shows the tool with a key field; the typed key goes straight to the provider', async () => {
    const { net, user } = renderAccess('user');
    await user.click(screen.getByRole('button', { name: 'Use my own private key' }));
    expect(toolHeading()).toBeVisible();
    const key = screen.getByLabelText('Private API key');
    expect(key).toBeEnabled();
    expect(key).toHaveFocus();
    expect(screen.getByText(/kept in this browser only/)).toBeVisible();
    await user.type(key, 'sk-mine');
    await waitFor(() => expect(net.direct.some((c) => c.path === '/assistant')).toBe(true));
    expect(net.direct.every((c) => c.authorization === 'Bearer sk-mine')).toBe(true);
    expect(net.proxied).toEqual([]);
  });

  it("shows the same screen when the proxy answers 403 operator_required (the server's word wins)", async () => {
    const net = network();
    net.state.proxyRefuses = true;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <KbImportAccess
          userRole="operator"
          providerName="Vapi"
          providerBaseUrl={BASE}
          proxyBaseUrl={PROXY}
          serverHoldsPrivateKey
          getAccessToken={async () => 'stale-operator-token'}
          storage={memoryStorage()}
          fetch={net.fetch}
        />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(noAccessHeading()).toBeVisible());
    expect(net.state.refused).toBeGreaterThan(0);
    expect(toolHeading()).toBeNull();
  });

  it("a 401 from the proxy (the account was deleted) asks the app to check the session; a typed key's 401 does not", async () => {
    const refusedSession = vi.fn();
    const unauthorized: typeof fetch = async () =>
      new Response(JSON.stringify({ error: 'unauthorized', message: 'Sign in to use this.' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    const { unmount } = render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <KbImportAccess
          userRole="admin"
          providerName="Vapi"
          providerBaseUrl={BASE}
          proxyBaseUrl={PROXY}
          serverHoldsPrivateKey
          getAccessToken={async () => 'token-of-a-deleted-user'}
          storage={memoryStorage()}
          fetch={unauthorized}
          onSessionRefused={refusedSession}
        />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(refusedSession).toHaveBeenCalled());
    unmount();

    const typedKeyRefused = vi.fn();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <KbImportAccess
          userRole={undefined}
          providerName="Vapi"
          providerBaseUrl={BASE}
          proxyBaseUrl={PROXY}
          serverHoldsPrivateKey={false}
          getAccessToken={async () => null}
          storage={memoryStorage()}
          fetch={unauthorized}
          onSessionRefused={typedKeyRefused}
        />
      </QueryClientProvider>,
    );
    await user.type(screen.getByLabelText('Private API key'), 'sk-wrong');
    await screen.findByText(/Invalid API key/);
    expect(typedKeyRefused).not.toHaveBeenCalled();
  });

  it('with no key on the server, everyone types their own key, as before roles', () => {
    renderAccess(undefined, { serverHoldsPrivateKey: false });
    expect(noAccessHeading()).toBeNull();
    expect(toolHeading()).toBeVisible();
    expect(screen.getByLabelText('Private API key')).toBeEnabled();
  });
});
