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

/**
 * The assistant's elements, one per participant. A build can pend for the whole media start-up
 * (play() waits), and the call or the participant may go meanwhile: a build overtaken by a newer
 * one, a drop or the end of the call is discarded instead of left in the page.
 */
export class AudioPlayers {
  #players = new Map<string, { player: HTMLAudioElement; track: MediaStreamTrack }>();
  #pendingBuilds = new Map<string, number>();
  #buildSequence = 0;
  #latest: HTMLAudioElement | null = null;

  /** The element that started playing last, while it plays. */
  get latest(): HTMLAudioElement | null {
    return this.#latest;
  }

  /**
   * Plays `track` for participant `id`, replacing its previous element. Resolves the element, or
   * null when the build was overtaken or `ended()` says the call is over; rejects when playback
   * could not start (usually the autoplay policy).
   */
  async play(
    id: string,
    track: MediaStreamTrack,
    volume: number | null,
    ended: () => boolean,
  ): Promise<HTMLAudioElement | null> {
    const build = ++this.#buildSequence;
    this.#pendingBuilds.set(id, build);
    let player: HTMLAudioElement;
    try {
      player = await createAudioPlayer(track, id, volume);
    } catch (error) {
      if (this.#pendingBuilds.get(id) === build) this.#pendingBuilds.delete(id);
      throw error;
    }
    if (ended() || this.#pendingBuilds.get(id) !== build) {
      removeAudioPlayer(player);
      return null;
    }
    this.#pendingBuilds.delete(id);
    const previous = this.#players.get(id);
    if (previous) removeAudioPlayer(previous.player);
    this.#players.set(id, { player, track });
    this.#latest = player;
    return player;
  }

  /** Removes the participant's element (and cancels a pending build), or only if it plays `track`. */
  drop(id: string, track?: MediaStreamTrack): void {
    const entry = this.#players.get(id);
    if (track && entry?.track !== track) return;
    this.#pendingBuilds.delete(id);
    if (!entry) return;
    this.#players.delete(id);
    if (this.#latest === entry.player) this.#latest = null;
    removeAudioPlayer(entry.player);
  }

  setVolume(volume: number): void {
    for (const { player } of this.#players.values()) player.volume = volume;
  }

  /** Removes every element and cancels every pending build. */
  clear(): void {
    for (const id of [...this.#players.keys()]) this.drop(id);
    this.#pendingBuilds.clear();
  }
}
