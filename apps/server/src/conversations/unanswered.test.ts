import { describe, expect, it } from 'vitest';
import { conversationServer } from './conversations-harness.js';

// GET /api/conversations/unanswered: the server scans the newest calls and chats once and keeps the
// result a minute. Before, every opening of the tab read 1000 calls and 1000 chats through the proxy.
// A question asked after the first scan is not seen until the kept scan goes: proof that the tab's
// second opening did not read the provider again. Saving an answer and deleting a conversation drop it.

describe('the unanswered questions, scanned by the server', () => {
  const conv = conversationServer();

  it('answers the second opening from the kept scan, and a saved answer or a deletion refreshes it', async () => {
    await conv.api.ask('Where do I park?');
    expect(await conv.api.unanswered()).toEqual(['Where do I park?']);

    // Asked after the scan: the next opening (within the minute) answers without reading the provider.
    const late = await conv.api.ask('Is there a lift?');
    expect(await conv.api.unanswered()).toEqual(['Where do I park?']);

    // Saving an answer drops the kept scan: the answered question goes, the late one appears.
    expect((await conv.api.saveAnswer('Where do I park?', 'Behind the building.')).status).toBe(200);
    expect(await conv.api.unanswered()).toEqual(['Is there a lift?']);

    // Deleting a conversation through /api/provider drops it too: its question is not offered again.
    const deleted = await conv.api.send('DELETE', `/api/provider/chat/${late.id}`, 'operator-token');
    expect(deleted.status).toBe(200);
    expect(await conv.api.unanswered()).toEqual([]);
  });

  it('is for operators and admins only', async () => {
    expect((await conv.api.send('GET', '/api/conversations/unanswered', 'user-token')).status).toBe(403);
    expect((await conv.api.send('GET', '/api/conversations/unanswered', null)).status).toBe(401);
    expect((await conv.api.send('GET', '/api/conversations/unanswered', 'admin-token')).status).toBe(200);
  });
});
