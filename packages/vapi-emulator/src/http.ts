import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The provider's (NestJS) error body: `message` is a string, or a list for validation failures. */
export interface ProviderErrorBody {
  message: string | string[];
  error: string;
  statusCode: number;
}

export function errorBody(status: number, message: string | string[]): ProviderErrorBody {
  return { message, error: reasons[status] ?? 'Error', statusCode: status };
}

/** Throws an HTTP error whose response carries the provider's error body. */
export function fail(
  status: ContentfulStatusCode,
  message: string | string[],
  headers?: Record<string, string>,
): never {
  throw new HTTPException(status, {
    res: new Response(JSON.stringify(errorBody(status, message)), {
      status,
      headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
    }),
  });
}

/** zod issues as the provider words them: "knowledgeBases.0.provider must be ..." */
export function issueMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.join('.');
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((k) => `property ${where ? `${where}.` : ''}${k} should not exist`).join('; ');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}

/** Parses a value with a schema, answering 400 with every problem when it does not fit. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) fail(400, issueMessages(result.error));
  return result.data;
}

/** The JSON body of a request, or 400 when it is missing or malformed. */
export async function jsonBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('application/json'))
    fail(415, 'Send the body as JSON (Content-Type: application/json).');
  try {
    return await c.req.json();
  } catch {
    fail(400, 'The body is not valid JSON.');
  }
}

/** Constant-time string comparison (for keys and secrets). */
export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The header by which the server's own proxy proves that its X-Forwarded-* headers are its own. */
export const PROXY_SECRET_HEADER = 'x-engage-proxy';

/**
 * The public origin and mount prefix of the emulator as the caller reached it. X-Forwarded-Proto
 * and X-Forwarded-Host are honoured only from the server's own proxy (the request carries
 * `x-engage-proxy` equal to `forwardedHeaderSecret`); anyone else could otherwise point the URLs
 * handed back (stored file URLs, room URLs) at a host of their choosing. `suffix` is the route's
 * own pattern, so the prefix is whatever the emulator is mounted under ('' or '/provider').
 */
export function publicBase(
  c: Context,
  suffix: string,
  forwardedHeaderSecret?: string,
): { origin: string; secure: boolean; prefix: string } {
  const url = new URL(c.req.url);
  const proof = c.req.header(PROXY_SECRET_HEADER);
  const trusted = Boolean(forwardedHeaderSecret && proof && same(proof, forwardedHeaderSecret));
  const forwarded = (name: string) => (trusted ? c.req.header(name)?.split(',')[0]?.trim() : undefined);
  const proto = (forwarded('x-forwarded-proto') || url.protocol.replace(':', '')).toLowerCase();
  // Only a well-formed host is used: it ends up inside URLs handed back to the caller.
  const valid = (h: string | undefined) =>
    h && /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(h) ? h : undefined;
  const host = valid(forwarded('x-forwarded-host')) ?? valid(c.req.header('host')) ?? url.host;
  const secure = proto === 'https' || proto === 'wss';
  const route = c.req.routePath;
  const prefix = route.endsWith(suffix) ? route.slice(0, route.length - suffix.length) : '';
  return { origin: `${secure ? 'https' : 'http'}://${host}`, secure, prefix: prefix.replace(/\/+$/, '') };
}

/** 429 in the provider's shape for a caller past its per-address budget. */
export function tooMany(c: Context, retryAfter: number, what: string): Response {
  return c.json(
    {
      error: 'rate_limited',
      message: `Too many ${what} from this address; try again in ${retryAfter} s.`,
      statusCode: 429,
    },
    429,
    { 'Retry-After': String(retryAfter) },
  );
}
