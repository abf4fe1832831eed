import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { AdminApi, NewOAuthClient, UserRole, UserStatus } from './client';

export const AdminApiContext = createContext<AdminApi | null>(null);

export function useAdminApi(): AdminApi {
  const api = useContext(AdminApiContext);
  if (!api) throw new Error('useAdminApi must be used inside <AdminApiContext.Provider>');
  return api;
}

/** Every admin query lives under this key, so one invalidation refreshes lists and counts. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (status: UserStatus, search: string, cursor: string | null) =>
    ['admin', 'users', status, search, cursor] as const,
  stats: ['admin', 'stats'] as const,
  audit: ['admin', 'audit'] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  passkeys: (id: string) => ['admin', 'user', id, 'passkeys'] as const,
  outbox: ['admin', 'outbox'] as const,
  backups: ['admin', 'backups'] as const,
  oauthClients: ['admin', 'oauth-clients'] as const,
  embed: ['admin', 'embed'] as const,
};

/** Rows per page of each list. */
export const PAGE_SIZE = 25;

export function useUsersPage(status: UserStatus, search: string, cursor: string | null) {
  const api = useAdminApi();
  return useQuery({
    queryKey: adminKeys.users(status, search, cursor),
    queryFn: () => api.listUsers({ status, search, cursor, limit: PAGE_SIZE }),
    // While the next page or a new search loads, the current rows stay on screen.
    placeholderData: keepPreviousData,
  });
}

export function useAdminStats() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.stats, queryFn: () => api.stats(30) });
}

export function useAuditLog() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.audit, queryFn: () => api.audit(10) });
}

/** The mail outbox; refetched with everything else, so a mail an action sent shows at once. */
export function useOutbox() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.outbox, queryFn: () => api.outbox(20) });
}

/** The scheduled backups' state: is the owner's data safe? */
export function useBackupStatus() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.backups, queryFn: () => api.backups() });
}

function useInvalidateAdmin() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.all });
}

export function useCreateUser() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: api.createUser, onSuccess: invalidate });
}

export function useDeleteUser() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: api.deleteUser, onSuccess: invalidate });
}

export function useVerifyUsers() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: (ids: readonly string[]) => api.verifyUsers(ids), onSuccess: invalidate });
}

/** Sets one user's role; lists, counts and the activity log are refetched before it resolves. */
export function useSetRole() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: UserRole }) => api.setRole(id, role),
    onSuccess: invalidate,
  });
}

/** One user's details (the details panel); only fetched while the panel is open. */
export function useUserDetail(id: string, enabled: boolean) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.user(id), queryFn: () => api.getUser(id), enabled });
}

export function useInviteUser() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: (email: string) => api.inviteUser(email), onSuccess: invalidate });
}

export type UserAction = 'recovery' | 'magic-link' | 'sign-out' | 'ban';

/** The per-row actions of the actions menu; lists, counts and the activity log refetch after each. */
export function useUserAction() {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, action, duration }: { id: string; action: UserAction; duration?: string }) => {
      if (action === 'recovery') return api.sendRecovery(id);
      if (action === 'magic-link') return api.sendMagicLink(id);
      if (action === 'sign-out') return api.signOut(id);
      return api.ban(id, duration ?? 'none');
    },
    onSuccess: invalidate,
  });
}

/** The OAuth clients panel's list. */
export function useOAuthClients() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.oauthClients, queryFn: () => api.oauthClients() });
}

export function useCreateOAuthClient() {
  const api = useAdminApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NewOAuthClient) => api.createOAuthClient(input),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.oauthClients }),
  });
}

export function useUpdateOAuthClient() {
  const api = useAdminApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string; client_name: string; redirect_uris: string[] }) =>
      api.updateOAuthClient(id, input),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.oauthClients }),
  });
}

export function useRegenerateOAuthClientSecret() {
  const api = useAdminApi();
  return useMutation({ mutationFn: (id: string) => api.regenerateOAuthClientSecret(id) });
}

export function useDeleteOAuthClient() {
  const api = useAdminApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteOAuthClient(id),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.oauthClients }),
  });
}

/** One user's passkeys (the details panel); only fetched while the panel is open. */
export function useUserPasskeys(id: string, enabled: boolean) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.passkeys(id), queryFn: () => api.listPasskeys(id), enabled });
}

/** Removes a user's passkey; its list and the activity log refetch. */
export function useDeletePasskey(userId: string) {
  const api = useAdminApi();
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (passkeyId: string) => api.deletePasskey(userId, passkeyId),
    onSuccess: invalidate,
  });
}

/** The "Embed" panel's settings (they change only with the server's configuration or a build). */
export function useEmbedSettings() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.embed, queryFn: () => api.embed(), staleTime: 60_000 });
}
