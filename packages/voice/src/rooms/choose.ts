import type { DailyFactoryLike } from './daily.js';
import type { Room, RoomOptions } from './types.js';
import { isWebSocketUrl } from './websocket-protocol.js';

/**
 * Creates the room for a web call's URL: ws:/wss: → the WebSocket room, anything else → Daily.
 * Each adapter is loaded on first use, so neither is in the SDK's initial bundle (dist.test.ts).
 */
export async function createRoomFor(
  url: string,
  options: RoomOptions,
  dailyFactory?: DailyFactoryLike,
): Promise<Room> {
  if (isWebSocketUrl(url)) {
    const { createRoom } = await import('./websocket.js');
    return createRoom(options);
  }
  const daily = await import('./daily.js');
  return dailyFactory ? daily.createDailyRoom(options, dailyFactory) : daily.createRoom(options);
}
