/**
 * @engage/vapi-client: a typed client for the provider's (Vapi) REST API. openapi-fetch types every
 * route from the provider's OpenAPI document; the transport adds the token, the timeout, opt-in
 * retries and the client's two errors (`VapiApiError`, `VapiNetworkError`).
 * @module
 */
export { createVapiClient, dataOf, fileUpload, type VapiClient } from './client.js';
export type { UndocumentedPaths, VapiPaths, VapiRequestBody } from './paths.js';
export {
  createVapiFetch,
  DEFAULT_BASE_URL,
  retryAfterMs,
  type RetryPolicy,
  type TokenSource,
  type VapiClientOptions,
} from './transport.js';
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
