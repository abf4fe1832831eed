import type Daily from '@daily-co/daily-js';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { joinTarget } from '../join-target.js';
import { FakeDaily } from '../testing/fake-daily.js';
import { createRoomFor, isWebSocketUrl } from './choose.js';
import type { DailyFactoryLike } from './daily.js';

const fake = new FakeDaily();
vi.mock('@daily-co/daily-js', () => ({
  default: { createCallObject: (o: never) => fake.createCallObject(o) },
}));

const options = { audioSource: true, videoSource: false } as const;

describe('the room chooser', () => {
  it('ws: and wss: URLs get the WebSocket room, anything else Daily', async () => {
    expect(isWebSocketUrl('wss://engage.test/provider/rooms/1')).toBe(true);
    expect(isWebSocketUrl('WS://localhost:8787/r')).toBe(true);
    expect(isWebSocketUrl('https://x.daily.co/r')).toBe(false);
    const ws = await createRoomFor('ws://localhost:8787/provider/rooms/1', options);
    expect(ws.kind).toBe('websocket');
    await ws.destroy();
  });

  // That both adapters load lazily (dynamic import, own chunks) is checked on the built bundle in
  // dist.test.ts: this module mock cannot tell a static import from a dynamic one.
  it('any other URL gets a Daily room whose call object comes from Daily.createCallObject', async () => {
    const room = await createRoomFor('https://x.daily.co/room', options);
    expect(room.kind).toBe('daily');
    expect(room.vendorObject()).toBe(fake.last);
    expect(fake.last.factoryOptions).toMatchObject({
      audioSource: true,
      videoSource: false,
      dailyConfig: {},
    });
    await room.destroy();
  });

  it("Daily's real factory fits the adapter's interface (checked by tsc)", () => {
    expectTypeOf<typeof Daily>().toExtend<DailyFactoryLike>();
  });

  it('joins webCallUrl, or the transport WebSocket URL when there is no webCallUrl', () => {
    expect(joinTarget({ id: '1', webCallUrl: 'https://a.daily.co/r' })).toBe('https://a.daily.co/r');
    expect(
      joinTarget({
        id: '1',
        webCallUrl: '',
        transport: { provider: 'vapi.websocket', websocketCallUrl: 'wss://w/1' },
      }),
    ).toBe('wss://w/1');
    expect(joinTarget({ id: '1', webCallUrl: '' })).toBeUndefined();
  });
});
