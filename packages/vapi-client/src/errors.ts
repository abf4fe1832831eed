/**
 * Errors thrown by the client. Guards check a brand property instead of `instanceof`, so they still
 * work when two copies of the package end up in one bundle.
 * @module
 */

const API_BRAND = '__isVapiApiError';

/** Reason phrases for the statuses the provider answers, when the answer carried none. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const NETWORK_BRAND = '__isVapiNetworkError';

/** The provider answered with an HTTP error status (4xx or 5xx). */
export class VapiApiError extends Error {
  readonly [API_BRAND] = true;
  /** HTTP status, e.g. 401. */
  readonly status: number;
  readonly statusText: string;
  /** The parsed response body: JSON when it parses, else the raw text (or undefined when empty). */
  readonly body: unknown;
  /** The value of Retry-After in milliseconds, when the response carried one. */
  readonly retryAfterMs: number | undefined;

  constructor(init: { status: number; statusText: string; body: unknown; retryAfterMs?: number }) {
    // HTTP/2 answers carry no reason phrase; messages read better with the standard one.
    const statusText = init.statusText || STATUS_TEXT[init.status] || '';
    super(readableMessage(init.status, statusText, init.body));
    this.name = 'VapiApiError';
    this.status = init.status;
    this.statusText = statusText;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** The body as text (JSON written back), for messages that quote the provider. */
  get bodyText(): string {
    if (typeof this.body === 'string') return this.body;
    return this.body === undefined ? '' : JSON.stringify(this.body);
  }

  /** True for statuses worth retrying: 408, 429 and 5xx. */
  get retryable(): boolean {
    return this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** The request never got an HTTP answer: DNS, connection refused, reset, or the client's timeout. */
export class VapiNetworkError extends Error {
  readonly [NETWORK_BRAND] = true;
  /** Always true: a network failure may succeed when tried again. */
  readonly retryable = true;
  /** True when the client's own timeout ended the request. */
  readonly timedOut: boolean;

  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'VapiNetworkError';
    this.timedOut = options.timedOut ?? false;
  }
}

export function isVapiApiError(error: unknown): error is VapiApiError {
  return (
    typeof error === 'object' && error !== null && (error as Record<string, unknown>)[API_BRAND] === true
  );
}

export function isVapiNetworkError(error: unknown): error is VapiNetworkError {
  return (
    typeof error === 'object' && error !== null && (error as Record<string, unknown>)[NETWORK_BRAND] === true
  );
}

/**
 * A one-line message from an error body. The provider answers NestJS-style bodies whose `message`
 * is a string, or an array of strings when validation fails.
 */
export function readableMessage(status: number, statusText: string, body: unknown): string {
  const prefix = `${status}${statusText ? ` ${statusText}` : ''}`;
  const detail = messageOf(body);
  return detail ? `${prefix}: ${detail}` : prefix;
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message) return message;
  if (Array.isArray(message)) {
    const parts = message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).filter(Boolean);
    if (parts.length) return parts.join('; ');
  }
  if (typeof error === 'string' && error) return error;
  return undefined;
}
