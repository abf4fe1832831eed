/**
 * What jsdom lacks for the SDK's audio playback: `MediaStream`, and `play()`/`pause()` on media
 * elements. `installMediaStubs()` adds them; `blockAutoplay()` makes play() reject as a browser's
 * autoplay policy does.
 * @module
 */

class FakeMediaStream {
  #tracks: MediaStreamTrack[];
  constructor(tracks: MediaStreamTrack[] = []) {
    this.#tracks = [...tracks];
  }
  getTracks(): MediaStreamTrack[] {
    return [...this.#tracks];
  }
  getAudioTracks(): MediaStreamTrack[] {
    return this.#tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks(): MediaStreamTrack[] {
    return this.#tracks.filter((t) => t.kind === 'video');
  }
}

let autoplayBlocked = false;

/** Installs the stubs (idempotent). Returns a function that makes play() succeed again. */
export function installMediaStubs(): void {
  const g = globalThis as { MediaStream?: unknown };
  if (typeof g.MediaStream === 'undefined') g.MediaStream = FakeMediaStream;
  if (typeof HTMLMediaElement === 'undefined') return;
  const proto = HTMLMediaElement.prototype;
  Object.defineProperty(proto, 'play', {
    configurable: true,
    value(this: HTMLMediaElement) {
      if (autoplayBlocked) {
        return Promise.reject(
          new DOMException(
            "play() failed because the user didn't interact with the document first.",
            'NotAllowedError',
          ),
        );
      }
      return Promise.resolve();
    },
  });
  Object.defineProperty(proto, 'pause', { configurable: true, value() {} });
  // jsdom has no srcObject; a plain property is enough for the SDK.
  if (!Object.getOwnPropertyDescriptor(proto, 'srcObject')) {
    Object.defineProperty(proto, 'srcObject', { configurable: true, writable: true, value: null });
  }
}

/** Makes play() reject with NotAllowedError (true) or resolve (false). */
export function blockAutoplay(blocked = true): void {
  autoplayBlocked = blocked;
}

/** The SDK's audio elements currently in the page. */
export function audioElements(): HTMLAudioElement[] {
  return [...document.querySelectorAll<HTMLAudioElement>('audio')];
}
