import type { RoomEventMap, RoomEventName } from './types.js';

type Listener = (payload: never) => void;

/**
 * A room's own listeners, for rooms that raise the port's events themselves (the WebSocket room):
 * a listener that throws is warned about and the others still run, as Daily does.
 */
export class RoomListeners {
  readonly #listeners = new Map<RoomEventName, Set<Listener>>();

  /** Adds a listener; returns what removes it. */
  on<E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  emit<E extends RoomEventName>(event: E, payload: RoomEventMap[E]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (p: RoomEventMap[E]) => void)(payload);
      } catch (error) {
        console.warn(`[engage/voice] a '${event}' listener threw:`, error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
