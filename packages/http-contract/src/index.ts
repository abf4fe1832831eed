/**
 * @engage/http-contract: the server's own HTTP contract as zod schemas, one definition for both
 * apps. The server validates and types its answers with them; the site derives its types with
 * `import type` (zod stays out of the browser bundle unless a module validates with a schema).
 * @module
 */
export * from './admin.js';
export * from './public-config.js';
export * from './outbox.js';
export * from './limits.js';
export * from './backups.js';
export * from './unanswered.js';
export * from './format-size.js';
export * from './admin-passkeys.js';
export * from './embed.js';
export * from './page-content.js';
export * from './account.js';
export * from './password-rule.js';
