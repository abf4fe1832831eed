import { assuranceDemandOf, demandAssurance } from './assurance';

/**
 * The one client for Engage's own server (`/api/*`), used by every feature: each request carries the
 * signed-in user's access token, and each answer is treated the same way:
 * - 403 `mfa_required` / `mfa_enrollment_required`: the route guard asks for the second factor or an
 *   authenticator app (lib/assurance.ts) before the page shows (and asks) again;
 * - 401: the session may have ended (account deleted, session revoked): the site asks the auth
 *   service and signs out with a message if so (lib/session-store.ts);
 * - any other refusal: an {@link EngageApiError} with the server's one error shape
 *   (`{ error, message, field? }`), whose message the page shows.
 * @module
 */

/** A refusal of Engage's server: its status, its code and its message (0 / network_error: no answer). */
export class EngageApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The input the server names as wrong, when it names one. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'EngageApiError';
  }
}

export interface EngageApiOptions {
  getAccessToken: () => Promise<string | null> | string | null;
  /** Called on a 401: the app asks the auth service whether the session has ended. */
  onSessionRefused?: () => void;
  fetch?: typeof fetch;
  /** Where the server is (default: the page's own origin). */
  origin?: string;
}

export interface SendOptions {
  /** Sent as JSON. */
  body?: unknown;
  accept?: string;
  signal?: AbortSignal;
}

export interface EngageApi {
  /** The answer of a request that succeeded; a refusal or no answer throws an EngageApiError. */
  send(method: string, path: string, options?: SendOptions): Promise<Response>;
  /** `send`, and the answer's JSON. */
  json<T>(method: string, path: string, options?: SendOptions): Promise<T>;
  /**
   * The same watching for clients that speak another API through the server (the provider's, at
   * `/api/provider`): 401s and second-factor demands are reported, the answer is theirs to read.
   */
  fetch: typeof fetch;
  /** The user's access token, for those clients. */
  token(): Promise<string | null>;
}

/** A fetch that reports session refusals (401) and the server's second-factor demands. */
export function watchingSession(
  run: typeof fetch = (...args) => fetch(...args),
  onSessionRefused?: () => void,
): typeof fetch {
  return async (...args) => {
    const response = await run(...args);
    if (response.status === 401) onSessionRefused?.();
    const asked = await assuranceDemandOf(response);
    if (asked) demandAssurance(asked);
    return response;
  };
}

/** The server's error answer as an EngageApiError. */
export async function engageApiError(response: Response): Promise<EngageApiError> {
  const body = (await response.json().catch(() => null)) as {
    error?: unknown;
    message?: unknown;
    field?: unknown;
  } | null;
  return new EngageApiError(
    response.status,
    typeof body?.error === 'string' ? body.error : 'request_failed',
    typeof body?.message === 'string' && body.message
      ? body.message
      : `The server answered ${response.status}.`,
    typeof body?.field === 'string' ? body.field : null,
  );
}

export function createEngageApi(options: EngageApiOptions): EngageApi {
  const run = watchingSession(options.fetch, options.onSessionRefused);
  const origin = options.origin ?? '';

  async function send(method: string, path: string, { body, accept, signal }: SendOptions = {}) {
    const token = await options.getAccessToken();
    let response: Response;
    try {
      response = await run(`${origin}${path}`, {
        method,
        headers: {
          Accept: accept ?? 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new EngageApiError(0, 'network_error', 'The server could not be reached.');
    }
    if (!response.ok) throw await engageApiError(response);
    return response;
  }

  return {
    send,
    async json<T>(method: string, path: string, init?: SendOptions) {
      const response = await send(method, path, init);
      return (await response.json().catch(() => null)) as T;
    },
    fetch: run,
    token: async () => options.getAccessToken(),
  };
}
