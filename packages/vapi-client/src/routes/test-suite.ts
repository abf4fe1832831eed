/** Test suites with their tests and runs: /test-suite, /test-suite/{id}/test[/{testId}], /test-suite/{id}/run[/{runId}]. */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type { JsonObject, VapiResource } from '../types.js';

export const listTestSuites = <T = unknown>(r: Requester, query?: Query, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/test-suite', query, ...o });
export const createTestSuite = <T = VapiResource>(r: Requester, body: JsonObject, o?: RequestOptions) =>
  r.request<T>({ method: 'POST', path: '/test-suite', body, ...o });
export const getTestSuite = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/test-suite/${id}`, ...o });
export const updateTestSuite = <T = VapiResource>(
  r: Requester,
  id: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/test-suite/${id}`, body, ...o });
export const deleteTestSuite = <T = VapiResource>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/test-suite/${id}`, ...o });

export const listTestSuiteTests = <T = unknown>(
  r: Requester,
  suiteId: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/test-suite/${suiteId}/test`, query, ...o });
export const createTestSuiteTest = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/test-suite/${suiteId}/test`, body, ...o });
export const getTestSuiteTest = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  testId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/test-suite/${suiteId}/test/${testId}`, ...o });
export const updateTestSuiteTest = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  testId: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/test-suite/${suiteId}/test/${testId}`, body, ...o });
export const deleteTestSuiteTest = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  testId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'DELETE', path: path`/test-suite/${suiteId}/test/${testId}`, ...o });

export const listTestSuiteRuns = <T = unknown>(
  r: Requester,
  suiteId: string,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/test-suite/${suiteId}/run`, query, ...o });
export const createTestSuiteRun = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  body: JsonObject = {},
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/test-suite/${suiteId}/run`, body, ...o });
export const getTestSuiteRun = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  runId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/test-suite/${suiteId}/run/${runId}`, ...o });
export const updateTestSuiteRun = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  runId: string,
  body: JsonObject,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/test-suite/${suiteId}/run/${runId}`, body, ...o });
export const deleteTestSuiteRun = <T = VapiResource>(
  r: Requester,
  suiteId: string,
  runId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'DELETE', path: path`/test-suite/${suiteId}/run/${runId}`, ...o });
