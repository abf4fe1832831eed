/**
 * Small test doubles shared by the Daily fake and the SDK's tests: a gate the test opens or fails,
 * and a stand-in MediaStreamTrack.
 * @module
 */

export interface Gate {
  promise: Promise<void>;
  open(): void;
  fail(error: unknown): void;
}

export function createGate(): Gate {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

let trackCounter = 0;

/** A stand-in MediaStreamTrack (jsdom and Node have none). */
export function createFakeTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  const track = {
    kind,
    id: `fake-${kind}-${++trackCounter}`,
    label: `fake ${kind}`,
    enabled: true,
    muted: false,
    readyState: 'live' as MediaStreamTrackState,
    stop() {
      track.readyState = 'ended';
    },
  };
  // The SDK only reads kind and passes the track on; the rest of the interface is not needed.
  return track as unknown as MediaStreamTrack;
}
