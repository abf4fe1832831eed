import { describe, expect, it } from 'vitest';
import { conversationServer } from './conversations-harness.js';

// The kept unanswered scan is dropped by a conversation deleted through /api/provider, read from
// the route the proxy itself parsed and forwarded (not a second reading of the URL): every spelling
// of the path the proxy accepts drops it, and one it refuses neither deletes nor drops anything.

/** The id with its first character percent-encoded, as a client may send it. */
const encodedFirst = (id: string) => `%${id.charCodeAt(0).toString(16).toUpperCase()}${id.slice(1)}`;

describe('deleting a conversation through the proxy drops the kept unanswered scan', () => {
  const conv = conversationServer();

  it('with a percent-encoded id the proxy accepts; not with a trailing slash it refuses', async () => {
    const parked = await conv.api.ask('Where do I park?');
    expect(await conv.api.unanswered()).toEqual(['Where do I park?']);
    // Asked after the scan: seen only once the kept scan is dropped.
    const lift = await conv.api.ask('Is there a lift?');

    // A trailing slash: the proxy refuses the route, so nothing is deleted and the scan is kept.
    const refused = await conv.api.send('DELETE', `/api/provider/chat/${parked.id}/`, 'operator-token');
    expect(refused.status).toBe(403);
    expect(await conv.api.unanswered()).toEqual(['Where do I park?']);

    // The same conversation with its id percent-encoded: deleted upstream, and the scan dropped.
    const deleted = await conv.api.send(
      'DELETE',
      `/api/provider/chat/${encodedFirst(parked.id)}`,
      'operator-token',
    );
    expect(deleted.status).toBe(200);
    expect((await conv.api.send('GET', `/api/provider/chat/${parked.id}`, 'operator-token')).status).toBe(
      404,
    );
    expect(await conv.api.unanswered()).toEqual(['Is there a lift?']);

    // A delete the provider answers 404 (already gone) drops nothing: a question asked since waits.
    await conv.api.ask('Can I bring my dog?');
    const gone = await conv.api.send('DELETE', `/api/provider/chat/${parked.id}`, 'operator-token');
    expect(gone.status).toBe(404);
    expect(await conv.api.unanswered()).toEqual(['Is there a lift?']);

    // And the plain spelling still works.
    expect((await conv.api.send('DELETE', `/api/provider/chat/${lift.id}`, 'operator-token')).status).toBe(
      200,
    );
    expect(await conv.api.unanswered()).toEqual(['Can I bring my dog?']);
  });
});
