/** The admin toasts, word for word, and the role toasts (docs/architecture.md, "Roles"). */
export const toasts = {
  fetchFailed: 'Failed to fetch users',
  created: 'User created successfully',
  createFailed: 'Failed to create user',
  deleted: 'User deleted successfully',
  deleteFailed: 'Failed to delete user',
  copied: 'SQL query copied to clipboard!',
  copyFailed: 'Failed to copy SQL query',
  roleChanged: (email: string, role: string) => `${email} is now ${role === 'User' ? 'a' : 'an'} ${role}`,
  roleFailed: 'Failed to change role',
} as const;

/** How the dashboard names each role. */
export const roleLabels = { user: 'User', operator: 'Operator', admin: 'Admin' } as const;

/** A form's inline message for a refused request: what failed, then the server's reason when it gave one. */
export function failure(what: string, error: unknown): string {
  const reason = error instanceof Error ? error.message.trim() : '';
  return reason ? `${what}: ${reason}` : what;
}

/** the create form with a field missing. */
export const MISSING_FIELDS = 'Please provide both email and password';
/** the question before a deletion. */
export const DELETE_QUESTION = 'Are you sure you want to delete this user?';

/** The toasts of the account actions. */
export const actionToasts = {
  invited: (email: string) => `Invitation sent to ${email}`,
  inviteFailed: 'Failed to invite user',
  recovery: (email: string) => `Password recovery link sent to ${email}`,
  magicLink: (email: string) => `Sign-in link sent to ${email}`,
  signedOut: (email: string) => `${email} is signed out everywhere`,
  banned: (email: string) => `${email} is banned`,
  unbanned: (email: string) => `${email} can sign in again`,
  failed: 'The action failed',
  exported: 'Users exported',
  exportFailed: 'Failed to export users',
} as const;

/** The ban lengths the dashboard offers, in GoTrue's duration format. */
export const BAN_DURATIONS = [
  { value: '1h', label: '1 hour' },
  { value: '24h', label: '24 hours' },
  { value: '168h', label: '7 days' },
  { value: '720h', label: '30 days' },
  { value: '876000h', label: 'Indefinitely (100 years)' },
] as const;
