/**
 * @engage/vapi-client: a typed REST client for every route of the provider (Vapi).
 * `createVapiClient` groups routes by area; each route is also a standalone function taking a
 * `Requester` first, so a bundle only carries the routes it imports.
 * @module
 */
export { createVapiClient, type VapiClient } from './client.js';
export {
  createRequester,
  DEFAULT_BASE_URL,
  path,
  retryAfterMs,
  type HttpMethod,
  type Query,
  type QueryValue,
  type Requester,
  type RequesterOptions,
  type RequestOptions,
  type RequestSpec,
  type RetryPolicy,
  type TokenSource,
} from './request.js';
export { sleep } from './sleep.js';
export {
  isRateLimited,
  isRetryableError,
  isRetryableStatus,
  retryAfterOf,
  retryDelay,
  type BackoffOptions,
} from './retry.js';
export { isVapiApiError, isVapiNetworkError, VapiApiError, VapiNetworkError } from './errors.js';
export type * from './types.js';
export { VAPI_ROUTES } from './routes/table.js';
export * from './routes/analytics.js';
export * from './routes/assistant.js';
export * from './routes/call.js';
export * from './routes/campaign.js';
export * from './routes/chat.js';
export * from './routes/credential.js';
export * from './routes/file.js';
export * from './routes/knowledge-base.js';
export * from './routes/knowledge-base-v2.js';
export * from './routes/logs.js';
export * from './routes/org.js';
export * from './routes/phone-number.js';
export * from './routes/provider.js';
export * from './routes/session.js';
export * from './routes/squad.js';
export * from './routes/support.js';
export * from './routes/test-suite.js';
export * from './routes/template.js';
export * from './routes/token.js';
export * from './routes/tool.js';
export * from './routes/v2.js';
export * from './routes/voice-library.js';
export * from './routes/workflow.js';
