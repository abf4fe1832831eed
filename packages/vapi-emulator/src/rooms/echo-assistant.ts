import {
  assistantSettings,
  ECHO_TAIL_MS,
  json,
  record,
  SAY_FAILED,
  saidSoFar,
  STALL_FLUSH_MS,
  type AssistantEffect,
  type EchoAssistantOptions,
  type EndedReason,
  type Playing,
  type RoomPhase,
  type Segment,
} from './assistant-effects.js';
import { parseClientMessage } from './client-messages.js';
import { createDecoder, samplesFor, type AudioFormat } from './pcm.js';
import { Conversation, nextPartial, transcriptMessage } from './transcript.js';
import { EnergyVad } from './vad.js';

/**
 * The echo assistant 'Vapi Speaker' as a pure state machine: it receives the caller's audio and
 * control messages with the time they arrived, and answers effects (JSON messages, paced audio
 * frames, a close). The WebSocket layer (./index.ts) only carries those effects out, and does the
 * slow work effects ask for (answering a typed question, synthesising speech) outside, so every
 * behaviour here is tested without a socket or a clock. What the assistant says is captioned as it
 * plays (`transcript` partials, then a final) and kept in the conversation; the caller's own speech
 * has no transcript (there is no recogniser offline), only `speech-update`s.
 * @module
 */

export class EchoAssistant {
  readonly format: AudioFormat;
  #phase: RoomPhase = 'waiting';
  readonly #decode: (bytes: Uint8Array) => Int16Array;
  readonly #vad: EnergyVad;
  readonly #options: ReturnType<typeof assistantSettings>;
  readonly #greeting: EchoAssistantOptions['greeting'];
  readonly #epochOffsetMs: number;
  #conversation = new Conversation(0, 0);

  #startedAt = 0;
  #lastActivityAt = 0;
  #lastAudioAt = 0;
  #queue: Segment[] = [];
  #queuedSamples = 0;
  #playing: Playing | null = null;
  /** Caller audio is ignored until then: the tail of the assistant's voice at the caller's end. */
  #deafUntil = 0;

  constructor(options: EchoAssistantOptions) {
    this.format = options.format;
    this.#decode = createDecoder(options.format.format);
    this.#vad = new EnergyVad({ ...options.vad, sampleRate: options.format.sampleRate });
    this.#options = assistantSettings(options);
    this.#greeting = options.greeting;
    this.#epochOffsetMs = options.epochOffsetMs ?? 0;
  }

  get phase(): RoomPhase {
    return this.#phase;
  }

  /** Audio held by the room (caller's utterance plus queued playback), in samples: bounded. */
  get bufferedSamples(): number {
    const playingLeft = this.#playing ? this.#playing.segment.samples.length - this.#playing.sent : 0;
    return this.#vad.bufferedSamples + this.#queuedSamples + playingLeft;
  }

  /** True while the assistant has audio to send. */
  get speaking(): boolean {
    return this.#playing !== null || this.#queue.length > 0;
  }

  /** The caller connected: the call starts. */
  start(now: number): AssistantEffect[] {
    if (this.#phase !== 'waiting') return [];
    this.#phase = 'active';
    this.#startedAt = now;
    this.#lastActivityAt = now;
    this.#lastAudioAt = now;
    this.#conversation = new Conversation(now, this.#epochOffsetMs);
    const effects: AssistantEffect[] = [
      // The web SDK treats 'listening' as the start of the call.
      json({ type: 'listening' }),
      json({ type: 'status-update', status: 'in-progress' }),
    ];
    if (this.#greeting && this.#greeting.samples.length > 0)
      this.#enqueue({ kind: 'greeting', ...this.#greeting, endCallAfter: false });
    effects.push(...this.tick(now));
    return effects;
  }

  /** A binary frame of caller audio. */
  receiveAudio(bytes: Uint8Array, now: number): AssistantEffect[] {
    if (this.#phase !== 'active') return [];
    this.#lastAudioAt = now;
    const effects: AssistantEffect[] = [];
    // Decoded even when not listening, so a sample split across frames stays aligned.
    const samples = this.#decode(bytes);
    if (this.speaking || now < this.#deafUntil) {
      // Half duplex: what the caller's microphone picks up of the assistant's own voice (speakers,
      // imperfect echo cancellation) must never be echoed back, or the call would loop forever.
      for (const event of this.#vad.flush()) this.#onVad(event, now, effects);
    } else {
      for (const event of this.#vad.push(samples)) this.#onVad(event, now, effects);
    }
    effects.push(...this.tick(now));
    return effects;
  }

  /** A text frame: a JSON control or app message. */
  receiveText(text: string, now: number): AssistantEffect[] {
    if (this.#phase !== 'active') return [];
    const result = parseClientMessage(text);
    if (!result.ok) return [json({ type: 'error', error: 'invalid_message', message: result.problem })];
    this.#lastActivityAt = now;
    const { message } = result;
    switch (message.type) {
      case 'hangup':
      case 'end-call':
        return this.end('customer-ended-call', now);
      case 'say':
        return [
          { type: 'speak', text: message.message, endCallAfterSpoken: message.endCallAfterSpoken ?? false },
        ];
      case 'add-message': {
        // Typed into the call (the SDK's send()): kept in the conversation, and a user's is answered.
        const { role, content } = message.message;
        const added = this.#conversation.add(role === 'user' ? 'user' : 'bot', content, now);
        const effects: AssistantEffect[] = [json(this.#conversation.update()), record(added)];
        if (role === 'user' && message.triggerResponseEnabled !== false)
          effects.push({ type: 'answer', question: content });
        return effects;
      }
      default:
        // control and playable are accepted; the echo assistant has nothing to do with them.
        return [];
    }
  }

  /**
   * Speaks synthesised text (for a `speak` effect, or the answer of an `answer` one); null samples
   * when synthesis failed: an answer is then still captioned, and the caller told it was not spoken.
   */
  say(
    samples: Int16Array | null,
    text: string,
    endCallAfter: boolean,
    now: number,
    kind: 'say' | 'answer' = 'say',
  ): AssistantEffect[] {
    if (this.#phase !== 'active') return [];
    if (!samples) {
      if (kind === 'say') return [SAY_FAILED];
      const added = this.#conversation.add('bot', text, now);
      return [
        json(transcriptMessage('assistant', 'final', text)),
        json(this.#conversation.update()),
        record(added),
        SAY_FAILED,
      ];
    }
    this.#lastActivityAt = now;
    this.#enqueue({ kind, samples, text, endCallAfter });
    return this.tick(now);
  }

  /**
   * Advances time: sends the audio due by `now` (a little ahead of real time), and ends the call on
   * idle time-out or maximum duration. Called by the room's clock every frame.
   */
  tick(now: number): AssistantEffect[] {
    if (this.#phase !== 'active') return [];
    const effects: AssistantEffect[] = [];
    if (now - this.#startedAt >= this.#options.maxDurationMs) return this.end('exceeded-max-duration', now);
    // A caller that stops sending audio mid-utterance (muted, or a stalled network) still gets its echo.
    if (this.#vad.state === 'speech' && now - this.#lastAudioAt >= STALL_FLUSH_MS)
      for (const event of this.#vad.flush()) this.#onVad(event, now, effects);
    this.#play(now, effects);
    if (this.#phase !== 'active') return effects;
    if (
      !this.speaking &&
      this.#vad.state === 'quiet' &&
      now - this.#lastActivityAt >= this.#options.idleTimeoutMs
    )
      return [...effects, ...this.end('silence-timed-out', now)];
    return effects;
  }

  /** Ends the call: what was said of a reply cut short at `now`, the final status-update, a close. */
  end(reason: EndedReason, now?: number): AssistantEffect[] {
    if (this.#phase === 'ended') return [];
    const said = now === undefined ? [] : this.#cutShort(now);
    this.#release();
    return [
      ...said,
      json({ type: 'status-update', status: 'ended', endedReason: reason }),
      { type: 'close', code: 1000, reason: 'call ended' },
    ];
  }

  /** The caller left: everything held is dropped but what was said of a reply cut short (records). */
  disconnect(now?: number): AssistantEffect[] {
    if (this.#phase === 'ended') return [];
    const said = now === undefined ? [] : this.#cutShort(now);
    this.#release();
    return said;
  }

  /** What the caller heard of the reply being spoken, kept in the conversation. */
  #cutShort(now: number): AssistantEffect[] {
    const playing = this.#playing;
    const said = playing ? saidSoFar(playing, this.format.sampleRate, now) : '';
    return said ? [record(this.#conversation.add('bot', said, playing!.startedAt, now))] : [];
  }

  #release(): void {
    this.#phase = 'ended';
    this.#queue = [];
    this.#queuedSamples = 0;
    this.#playing = null;
    this.#vad.flush();
  }

  #onVad(event: ReturnType<EnergyVad['push']>[number], now: number, effects: AssistantEffect[]): void {
    this.#lastActivityAt = now;
    if (event.type === 'speech-start') {
      effects.push(json({ type: 'speech-update', status: 'started', role: 'user' }));
      return;
    }
    effects.push(json({ type: 'speech-update', status: 'stopped', role: 'user' }));
    // No transcript: nothing recognises speech offline. The echo's text only labels it internally.
    const text = `(${(event.utterance.length / this.format.sampleRate).toFixed(1)} s of speech)`;
    this.#enqueue({ kind: 'echo', samples: event.utterance, text, endCallAfter: false });
  }

  /** Queues audio for playback, cutting what would exceed the cap. */
  #enqueue(segment: Segment): void {
    const playingLeft = this.#playing ? this.#playing.segment.samples.length - this.#playing.sent : 0;
    const room = this.#options.maxQueuedSamples - this.#queuedSamples - playingLeft;
    if (room <= 0) return;
    const samples = segment.samples.length > room ? segment.samples.subarray(0, room) : segment.samples;
    this.#queue.push({ ...segment, samples });
    this.#queuedSamples += samples.length;
  }

  #play(now: number, effects: AssistantEffect[]): void {
    const rate = this.format.sampleRate;
    for (;;) {
      if (!this.#playing) {
        const next = this.#queue.shift();
        if (!next) return;
        this.#queuedSamples -= next.samples.length;
        this.#playing = { segment: next, sent: 0, startedAt: now, captioned: 0 };
        effects.push(json({ type: 'speech-update', status: 'started', role: 'assistant' }));
      }
      const playing = this.#playing;
      const { samples } = playing.segment;
      const due = samplesFor(now - playing.startedAt + this.#options.leadMs, rate);
      const chunks: Int16Array[] = [];
      while (playing.sent < samples.length && playing.sent < due) {
        const end = Math.min(playing.sent + this.#options.frameSamples, samples.length);
        chunks.push(samples.subarray(playing.sent, end));
        playing.sent = end;
      }
      for (const chunk of chunks) effects.push({ type: 'audio', samples: chunk });
      const playedUntil = playing.startedAt + (samples.length * 1000) / rate;
      if (playing.segment.kind !== 'echo') {
        const fraction = (now - playing.startedAt) / (playedUntil - playing.startedAt);
        const partial = nextPartial(playing.segment.text, playing.captioned, fraction);
        if (partial) {
          playing.captioned = partial.words;
          effects.push(json(partial.message));
        }
      }
      if (playing.sent < samples.length) return;
      // The last frame went out; the segment is over once its audio has played at the caller's end.
      if (now < playedUntil) return;
      this.#playing = null;
      this.#lastActivityAt = now;
      this.#deafUntil = now + ECHO_TAIL_MS;
      const { kind, text } = playing.segment;
      if (kind !== 'echo') effects.push(json(transcriptMessage('assistant', 'final', text)));
      effects.push(json({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
      if (kind !== 'echo') {
        const added = this.#conversation.add('bot', text, playing.startedAt, now);
        effects.push(json(this.#conversation.update()), record(added));
      }
      if (playing.segment.endCallAfter) {
        effects.push(...this.end('assistant-ended-call'));
        return;
      }
    }
  }
}
