import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, vi } from 'vitest';
import { AdminApiContext } from '../api/queries';
import { createFakeAdminApi, fakeUser } from '../testing/fake-admin-api';
import { AdminDashboard } from './admin-dashboard';

// Shared setup of the AdminDashboard tests (admin-dashboard*.test.tsx).
export const admin = fakeUser('admin@example.com', {
  email_confirmed_at: '2026-01-01T00:00:00.000Z',
  last_sign_in_at: '2026-01-05T10:00:00.000Z',
  is_admin: true,
});

export function setup(
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

export const unverified = () => screen.getByRole('region', { name: /Unverified Users/ });
export const verified = () => screen.getByRole('region', { name: /^Verified Users/ });

// Whole user journeys through a React tree in jsdom: seconds each on a busy two-core machine.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => vi.restoreAllMocks());
