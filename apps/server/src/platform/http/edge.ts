import type { Hono } from 'hono';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { PublicOrigin } from '../public-origin.js';
import { isMultipartUpload, jsonBodyLimit } from './body-limit.js';
import { databaseUnavailable } from './database-unavailable.js';
import { embedCors, embedUpgradeOrigin } from './embed-cors.js';
import { requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';

export interface RequestEdgeOptions {
  config: Config;
  logger: Logger;
  publicOrigin: PublicOrigin;
  /** The operators' metrics (platform/metrics.ts): timed first, told of database outages. */
  metrics?: Metrics | null;
}

/** A JSON error body for API paths; pages get plain text. */
export function errorBody(status: number, message: string) {
  return { error: status >= 500 ? 'internal_error' : 'request_error', message };
}

/**
 * What every request meets before a feature sees it, in order: the metrics' timer (when on), the
 * request log, the security headers, the one body cap, compression, the database-outage answer, and
 * the cross-site rules of the embeddable widget's routes. An error no route handled is logged and answers a JSON 500.
 */
export function useRequestEdge(app: Hono, options: RequestEdgeOptions): void {
  const { config, logger, publicOrigin, metrics } = options;
  if (metrics) app.use('*', metrics.requests);
  app.use('*', requestLog(logger));
  app.use(
    '*',
    securityHeaders({
      connect: [
        config.SUPABASE_URL,
        config.embeddedProvider ? undefined : config.VAPI_API_URL,
        // WebSocket calls join wss://<provider host>/<callId>/transport; CSP's https: does not cover wss:.
        config.embeddedProvider ? undefined : config.VAPI_API_URL.replace(/^http/, 'ws'),
      ].filter((v): v is string => Boolean(v)),
    }),
  );
  // Every body is capped before any route reads it (MAX_JSON_BYTES); file uploads have their own caps.
  app.use(
    '*',
    jsonBodyLimit({
      maxBytes: config.MAX_JSON_BYTES,
      exempt: isMultipartUpload(['/provider/file', '/api/provider/file']),
    }),
  );
  // WebSocket upgrades and streamed uploads must pass untouched; everything else may be compressed.
  app.use('*', async (c, next) => {
    if (c.req.header('upgrade')) return next();
    return compress()(c, next);
  });
  // A request that found the database unreachable answers 503 database_unavailable, not 500.
  app.use('*', databaseUnavailable(metrics ? () => metrics.databaseUnavailable() : undefined));

  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    logger.error('unhandled error', { path: c.req.path, error: error.message, stack: error.stack });
    return c.json(errorBody(500, 'Something went wrong on the server.'), 500);
  });

  // The routes <engage-widget> calls from the sites in EMBED_ORIGINS (CORS), and from no other site.
  app.use('/config.json', embedCors(config.EMBED_ORIGINS, ['GET'], publicOrigin));
  for (const path of [
    '/provider/call/web',
    '/provider/chat/web',
    '/api/calls/websocket',
    '/api/answer-requests',
  ])
    app.use(path, embedCors(config.EMBED_ORIGINS, ['POST'], publicOrigin));
  // The embedded provider's call rooms (WebSocket): pages of other sites are refused before the upgrade.
  app.use('/provider/rooms/*', embedUpgradeOrigin(config.EMBED_ORIGINS, publicOrigin));
}
