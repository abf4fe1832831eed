/** The admin toasts of SPEC §8, word for word, and the role toasts (ARCHITECTURE "Roles"). */
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

/** SPEC §5: the create form with a field missing. */
export const MISSING_FIELDS = 'Please provide both email and password';
/** SPEC §5: the question before a deletion. */
export const DELETE_QUESTION = 'Are you sure you want to delete this user?';
