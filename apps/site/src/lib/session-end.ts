/**
 * When the auth service refuses the stored session for good (its user was deleted or banned, the
 * session was revoked, the refresh token is unknown), the site signs out locally and says so. Only the
 * answers of the two requests that present the session count: reading the user (GET /user) and
 * refreshing it (POST /token?grant_type=refresh_token). A network failure, a server error or a rate
 * limit never ends a session: the user stays signed in and the next attempt may succeed.
 */

/** GoTrue's error codes that mean the session cannot be used again. */
const SESSION_ENDING_CODES: ReadonlySet<string> = new Set([
  'user_not_found',
  'session_not_found',
  'session_expired',
  'refresh_token_not_found',
  'refresh_token_already_used',
  'user_banned',
]);

export interface AuthRequest {
  method: string;
  url: string;
}

export interface AuthAnswer {
  /** The HTTP status; 0 when no answer arrived (offline, aborted). */
  status: number;
  /** GoTrue's error code (`code`, or `error_code` of older versions), when the body had one. */
  code: string | null;
}

/** True for the auth requests that present the stored session (the only ones whose refusal ends it). */
function presentsSession({ method, url }: AuthRequest): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://site.invalid');
  } catch {
    return false;
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const verb = method.toUpperCase();
  if (verb === 'GET' && path.endsWith('/auth/v1/user')) return true;
  return (
    verb === 'POST' &&
    path.endsWith('/auth/v1/token') &&
    parsed.searchParams.get('grant_type') === 'refresh_token'
  );
}

/**
 * The decision: does this answer to this auth request end the session? Only a definite refusal
 * (a 4xx with one of the codes above) does; no answer at all, 5xx and 429 never do.
 */
export function endsSession(request: AuthRequest, answer: AuthAnswer): boolean {
  if (!presentsSession(request)) return false;
  if (answer.status < 400 || answer.status >= 500 || answer.status === 429) return false;
  return answer.code !== null && SESSION_ENDING_CODES.has(answer.code);
}

/** The error code of an auth answer's JSON body, or null (not JSON, no code). */
export async function errorCodeOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { code?: unknown; error_code?: unknown } | null;
    const code = body?.code ?? body?.error_code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

const requestOf = (input: RequestInfo | URL, init?: RequestInit): AuthRequest => {
  if (input instanceof Request) return { method: init?.method ?? input.method, url: input.url };
  return { method: init?.method ?? 'GET', url: String(input) };
};

/**
 * A fetch for the auth client that reports the answers ending the session. The answer itself goes
 * to the auth client unchanged, and a failed request (offline) is rethrown untouched.
 */
export function watchSessionRefusals(fetchImpl: () => typeof fetch, onRefused: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl()(input, init);
    if (response.status >= 400) {
      const request = requestOf(input, init);
      if (endsSession(request, { status: response.status, code: await errorCodeOf(response) })) onRefused();
    }
    return response;
  };
}
