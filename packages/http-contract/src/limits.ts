/**
 * Size caps both apps must agree on, zod-free so the site can import them without pulling schemas
 * into its bundle.
 * @module
 */

/** The longest user search the admin API accepts (`GET /api/admin/users?search=`). */
export const USER_SEARCH_MAX_LENGTH = 255;
