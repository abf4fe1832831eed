/**
 * The password rule, one definition for the server (which enforces it: apps/server auth/passwords.ts)
 * and the site (which says it beside every new-password field, before anyone meets it as an error).
 */
export const PASSWORD_MIN_LENGTH = 6;

export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, and not a commonly used password.`;
