import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
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

/** The router's location, for the tests of the sections the URL names. */
function Location() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

export function setup(
  users = [admin, fakeUser('pending1@x.io'), fakeUser('pending2@x.io')],
  editorUrl: string | null = null,
  // Who the page believes is signed in (the fake server always knows it is `admin`).
  currentUserId: string | null = admin.id,
  // The section the URL names: most of these tests are about the users.
  section = 'users',
) {
  const api = createFakeAdminApi(users, admin.id);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/admin?section=${section}`]}>
        <AdminApiContext.Provider value={api}>
          <AdminDashboard currentUserId={currentUserId} sqlEditorUrl={editorUrl} searchDelay={0} />
          <Location />
        </AdminApiContext.Provider>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { api, user };
}

/** The one user list (its accessible name: "Users (count)"). */
export const users = () => screen.getByRole('region', { name: /^Users/ });

/** Narrows the list by status ("All users", "Unverified", "Verified"). */
export const showOnly = (user: ReturnType<typeof userEvent.setup>, label: string) =>
  user.selectOptions(within(users()).getByLabelText('Show'), label);

// Whole user journeys through a React tree in jsdom: seconds each on a busy two-core machine.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => vi.restoreAllMocks());
