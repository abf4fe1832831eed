/**
 * `increaseMicLevel()`'s audio graph: the microphone through a gain node into a new track. Touches
 * the browser only when called.
 * @module
 */

/** An amplified microphone track (if the graph produced one) and what releases the graph. */
export interface BoostedMicrophone {
  track: MediaStreamTrack | undefined;
  /** Stops the microphone and closes the audio context. */
  release(): void;
}

/** Opens the microphone and routes it through a gain of `gain`. */
export async function boostMicrophone(gain: number): Promise<BoostedMicrophone> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const context = new AudioContext();
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
    void context.close();
  };
  try {
    const gainNode = context.createGain();
    gainNode.gain.value = gain;
    const destination = context.createMediaStreamDestination();
    context.createMediaStreamSource(stream).connect(gainNode).connect(destination);
    const [track] = destination.stream.getAudioTracks();
    return { track, release };
  } catch (error) {
    release();
    throw error;
  }
}
