import { describe, expect, it } from 'vitest';
import { MessageFeed, type FeedItem } from './message-feed';

describe('MessageFeed', () => {
  it('replays what it kept to a late listener, then passes on new messages until unsubscribed', () => {
    const feed = new MessageFeed();
    feed.push('a');
    feed.push('b');
    const seen: FeedItem[] = [];
    const stop = feed.subscribe((item) => seen.push(item));
    feed.push('c');
    stop();
    feed.push('d');
    expect(seen).toEqual([
      { seq: 1, message: 'a' },
      { seq: 2, message: 'b' },
      { seq: 3, message: 'c' },
    ]);
  });

  it('keeps only the latest messages, and forgets them on clear while the numbers go on', () => {
    const feed = new MessageFeed(2);
    for (const m of ['a', 'b', 'c']) feed.push(m);
    const kept: unknown[] = [];
    feed.subscribe((item) => kept.push(item.message))();
    expect(kept).toEqual(['b', 'c']);
    feed.clear();
    feed.push('d');
    const after: FeedItem[] = [];
    feed.subscribe((item) => after.push(item))();
    expect(after).toEqual([{ seq: 4, message: 'd' }]);
  });
});
