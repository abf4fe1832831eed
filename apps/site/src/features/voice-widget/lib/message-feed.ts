/** One message of the feed, numbered in arrival order (numbers keep growing across `clear()`). */
export interface FeedItem {
  readonly seq: number;
  readonly message: unknown;
}

type FeedListener = (item: FeedItem) => void;

/**
 * The call's messages from the assistant, kept (the latest `limit`) for a listener that arrives
 * late: the call panel is lazy-loaded, and the first captions may come before it. A new listener
 * gets what is kept, then each new message; the numbers let it skip what it has seen (React may
 * subscribe the same component twice).
 */
export class MessageFeed {
  readonly #items: FeedItem[] = [];
  readonly #listeners = new Set<FeedListener>();
  #seq = 0;

  constructor(readonly limit = 500) {}

  push(message: unknown): void {
    const item = { seq: ++this.#seq, message };
    this.#items.push(item);
    if (this.#items.length > this.limit) this.#items.shift();
    for (const listener of [...this.#listeners]) listener(item);
  }

  /** Replays the kept messages, then passes on each new one until the returned function is called. */
  subscribe(listener: FeedListener): () => void {
    for (const item of [...this.#items]) listener(item);
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Forgets the kept messages (a new call begins). */
  clear(): void {
    this.#items.length = 0;
  }
}
