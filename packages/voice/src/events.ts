/**
 * A small typed event emitter with the surface of Node's EventEmitter that apps use with
 * `@vapi-ai/web` (`on`, `once`, `off`, `removeListener`, `removeAllListeners`, `emit`,
 * `listenerCount`, `setMaxListeners`). No dependency, so it works the same in browsers and Node.
 *
 * Two deliberate differences from Node's emitter:
 * - emitting `error` with no listener does nothing (Node throws, which crashed `start()` in the
 *   official SDK when an app had no `error` listener);
 * - a listener that throws is reported with `console.error` and the other listeners still run,
 *   so an app's bug never breaks the call.
 */

/** An event's timestamp (ISO 8601), as the official SDK stamps them. */
export const now = (): string => new Date().toISOString();

/** Maps each event name to its listener's argument list. */
export type EventMap = { [event: string]: unknown[] };

type Listener<A extends unknown[]> = (...args: A) => void;

interface Entry {
  /** Typed at the public methods; stored untyped because one map holds every event's listeners. */
  listener: unknown;
  once: boolean;
}

/** Node's default, warned about (never enforced) like Node does. */
export const DEFAULT_MAX_LISTENERS = 10;

export class TypedEmitter<M extends EventMap> {
  #listeners = new Map<keyof M, Entry[]>();
  #maxListeners = DEFAULT_MAX_LISTENERS;
  #warned = new Set<keyof M>();

  /** Adds a listener. */
  on<E extends keyof M>(event: E, listener: Listener<M[E]>): this {
    return this.#add(event, listener, false);
  }

  /** Same as `on`. */
  addListener<E extends keyof M>(event: E, listener: Listener<M[E]>): this {
    return this.#add(event, listener, false);
  }

  /** Adds a listener that is removed after its first call. */
  once<E extends keyof M>(event: E, listener: Listener<M[E]>): this {
    return this.#add(event, listener, true);
  }

  /** Removes one registration of the listener (the last one added, as Node does). */
  off<E extends keyof M>(event: E, listener: Listener<M[E]>): this {
    const entries = this.#listeners.get(event);
    if (!entries) return this;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i]?.listener === listener) {
        entries.splice(i, 1);
        break;
      }
    }
    if (entries.length === 0) this.#listeners.delete(event);
    return this;
  }

  /** Same as `off`. */
  removeListener<E extends keyof M>(event: E, listener: Listener<M[E]>): this {
    return this.off(event, listener);
  }

  /** Removes every listener of one event, or of all events. */
  removeAllListeners(event?: keyof M): this {
    if (event === undefined) this.#listeners.clear();
    else this.#listeners.delete(event);
    return this;
  }

  /** Calls the event's listeners in order; true when there was at least one. */
  emit<E extends keyof M>(event: E, ...args: M[E]): boolean {
    const entries = this.#listeners.get(event);
    if (!entries || entries.length === 0) return false;
    for (const entry of [...entries]) {
      if (entry.once) this.#removeEntry(event, entry);
      try {
        (entry.listener as Listener<M[E]>)(...args);
      } catch (error) {
        console.error(`[engage/voice] a '${String(event)}' listener threw:`, error);
      }
    }
    return true;
  }

  listenerCount(event: keyof M): number {
    return this.#listeners.get(event)?.length ?? 0;
  }

  /** The listeners of an event, in call order. */
  listeners<E extends keyof M>(event: E): Listener<M[E]>[] {
    return (this.#listeners.get(event) ?? []).map((entry) => entry.listener as Listener<M[E]>);
  }

  eventNames(): (keyof M)[] {
    return [...this.#listeners.keys()];
  }

  /** Above this many listeners on one event a leak warning is printed once (0 = no limit). */
  setMaxListeners(n: number): this {
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`max listeners must be a non-negative integer, got ${n}`);
    this.#maxListeners = n;
    return this;
  }

  getMaxListeners(): number {
    return this.#maxListeners;
  }

  #add<E extends keyof M>(event: E, listener: Listener<M[E]>, once: boolean): this {
    if (typeof listener !== 'function') {
      throw new TypeError(`The listener for '${String(event)}' must be a function, got ${typeof listener}`);
    }
    const entries = this.#listeners.get(event) ?? [];
    entries.push({ listener, once });
    this.#listeners.set(event, entries);
    if (this.#maxListeners > 0 && entries.length > this.#maxListeners && !this.#warned.has(event)) {
      this.#warned.add(event);
      console.warn(
        `[engage/voice] possible listener leak: ${entries.length} '${String(event)}' listeners ` +
          `(max ${this.#maxListeners}). Remove listeners you no longer need, or call setMaxListeners().`,
      );
    }
    return this;
  }

  #removeEntry(event: keyof M, entry: Entry): void {
    const entries = this.#listeners.get(event);
    if (!entries) return;
    const index = entries.indexOf(entry);
    if (index >= 0) entries.splice(index, 1);
    if (entries.length === 0) this.#listeners.delete(event);
  }
}
