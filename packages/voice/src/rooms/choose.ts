import type { JoinableCall } from '../types.js';
import type { DailyFactoryLike } from './daily.js';
import type { Room, RoomOptions } from './types.js';
import { isWebSocketUrl } from './websocket-url.js';

export { isWebSocketUrl };

/**
 * Creates the room for a web call's URL: ws:/wss: → the WebSocket room, anything else → Daily.
 * Each adapter is loaded on first use, so neither is in the SDK's initial bundle (dist.test.ts).
 */
export async function createRoomFor(
  url: string,
  options: RoomOptions,
  dailyFactory?: DailyFactoryLike,
  webCall?: JoinableCall,
): Promise<Room> {
  if (isWebSocketUrl(url)) {
    const [{ createRoom }, { assertRoomAudioFormat }] = await Promise.all([
      import('./websocket.js'),
      import('./websocket-audio-format.js'),
    ]);
    // A call in another audio format fails here, before any socket opens.
    if (webCall) assertRoomAudioFormat(webCall);
    return createRoom(options);
  }
  const daily = await import('./daily.js');
  return dailyFactory ? daily.createDailyRoom(options, dailyFactory) : daily.createRoom(options);
}
