import type { Db } from '@engage/db';
import type { LimitStore } from '@engage/rate-limit';
import { createRooms, type Rooms, type RoomUpgrade } from '@engage/vapi-emulator';
import type { Hono } from 'hono';
import { connectionAddress } from '../platform/client-address.js';
import type { Config } from '../platform/config.js';
import type { VerifyAccessToken } from '../platform/http/require-auth.js';
import type { Logger } from '../platform/logger.js';
import type { PublicOrigin } from '../platform/public-origin.js';
import type { SecretStore } from '../platform/secrets.js';
import { providerConnection, providerRoutes, type ProviderRoutes } from './connection.js';
import { websocketCalls } from './websocket-calls.js';

export interface ProviderFeatureDeps {
  config: Config;
  db: Db;
  logger: Logger;
  secrets: SecretStore;
  verify: VerifyAccessToken;
  publicOrigin: PublicOrigin;
  limitStore: LimitStore;
  /** WebSocket upgrades for the emulator's call rooms; without it there are no rooms. */
  upgradeWebSocket?: RoomUpgrade;
  /** The server's own handler: the embedded provider is reached through it, in-process. */
  fetch: (request: Request) => Promise<Response>;
  /** Told of every WebSocket call started (the operators' metrics). */
  onCallStarted?: () => void;
}

export interface ProviderFeature extends ProviderRoutes {
  /** `POST /api/calls/websocket`: calls over the provider's WebSocket transport, with the private key. */
  websocketCalls: Hono;
  /** Call rooms open on this instance (0 without the embedded provider's rooms). */
  openCallRooms(): number;
}

/**
 * The provider side of the server: the embedded emulator with its call rooms (when no real key is
 * configured), the operators' proxy, the server's own client, and WebSocket calls, all reaching the
 * same provider with the same keys.
 */
export function providerFeature(deps: ProviderFeatureDeps): ProviderFeature {
  const { config, logger, upgradeWebSocket } = deps;
  let rooms: Rooms | undefined;
  const connection = providerConnection(config, deps.secrets, deps.fetch);
  const provider = providerRoutes({
    config,
    connection,
    db: deps.db,
    logger,
    verify: deps.verify,
    publicOrigin: deps.publicOrigin,
    fetch: deps.fetch,
    limitStore: deps.limitStore,
    ...(upgradeWebSocket && {
      rooms: (calls) => {
        rooms = createRooms({
          ...calls,
          upgradeWebSocket,
          logger,
          maxRooms: config.CALL_ROOMS_MAX,
          maxRoomsPerAddress: config.CALL_ROOMS_PER_ADDRESS,
          clientAddress: connectionAddress,
        });
        return rooms.app;
      },
    }),
  });
  const calls = websocketCalls({
    config,
    connection,
    verifyAccessToken: deps.verify,
    logger,
    publicOrigin: deps.publicOrigin,
    limitStore: deps.limitStore,
    ...(deps.onCallStarted && { onCallStarted: deps.onCallStarted }),
  });
  return { ...provider, websocketCalls: calls, openCallRooms: () => rooms?.stats().rooms ?? 0 };
}
