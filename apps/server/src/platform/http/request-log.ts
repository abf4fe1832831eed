import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';

/**
 * One structured line per request. Only the path is logged, never the query string, headers or
 * body: those carry tokens (verify links, Authorization) that must not reach a log.
 */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
