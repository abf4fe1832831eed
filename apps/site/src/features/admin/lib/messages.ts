/** The admin toasts of SPEC §8, word for word. */
export const toasts = {
  fetchFailed: 'Failed to fetch users',
  created: 'User created successfully',
  createFailed: 'Failed to create user',
  deleted: 'User deleted successfully',
  deleteFailed: 'Failed to delete user',
  copied: 'SQL query copied to clipboard!',
  copyFailed: 'Failed to copy SQL query',
} as const;

/** SPEC §5: the create form with a field missing. */
export const MISSING_FIELDS = 'Please provide both email and password';
/** SPEC §5: the question before a deletion. */
export const DELETE_QUESTION = 'Are you sure you want to delete this user?';
