/**
 * Playback of the assistant's audio through hidden <audio> elements. The only code that touches
 * the DOM, and only when a track arrives (never at import).
 * @module
 */

/** Creates, attaches and starts an element for a remote track; removes it again if play() fails. */
export async function createAudioPlayer(
  track: MediaStreamTrack,
  participantId: string,
  volume: number | null,
): Promise<HTMLAudioElement> {
  const player = document.createElement('audio');
  player.dataset.participantId = participantId;
  player.dataset.engageVoice = '';
  // Before play(), so a flowing track never starts at full volume.
  if (volume !== null) player.volume = volume;
  player.autoplay = true;
  player.muted = false;
  document.body.appendChild(player);
  try {
    player.srcObject = new MediaStream([track]);
    await player.play();
  } catch (error) {
    removeAudioPlayer(player);
    throw error;
  }
  return player;
}

/** Stops and detaches an element, releasing its stream. */
export function removeAudioPlayer(player: HTMLAudioElement): void {
  try {
    player.pause();
  } catch {
    // Already stopped or never started.
  }
  player.srcObject = null;
  player.remove();
}
