import type { WSContext } from 'hono/ws';
import type { AssistantEffect, EndedReason } from './assistant-effects.js';
import type { EchoAssistant } from './echo-assistant.js';
import { encode } from './pcm.js';
import type { RoomsOptions } from './rooms-options.js';
import type { createSpeaker } from './speech.js';

/**
 * What the echo assistant asks of a room (its effects) carried out: audio and JSON frames sent,
 * `say` and questions answered (slow: looked up and synthesised, then handed back), messages
 * recorded, status reported, the socket closed.
 * @module
 */

export interface Room {
  callId: string;
  /** The caller's address key, counted in `perAddress` while the room is open. */
  address: string | undefined;
  assistant: EchoAssistant;
  ws: WSContext<unknown>;
  droppedFrames: number;
  /** `say` and `add-message` answers being prepared (bounded per room). */
  pendingSays: number;
}

/** `say` and `add-message` answers a room prepares at once; more are refused with an error message. */
const MAX_PENDING_SAYS = 2;

/** Frames are dropped for a caller who stops reading rather than buffering without bound. */
const MAX_SOCKET_BACKLOG = 512 * 1024;

export interface EffectRunnerDeps {
  options: Pick<RoomsOptions, 'logger' | 'onMessage' | 'onStatus'>;
  answer: NonNullable<RoomsOptions['answer']>;
  speaker: ReturnType<typeof createSpeaker>;
  now: () => number;
  /** Whether the room is still the open one for its call (an answer may come after it closed). */
  isCurrent: (room: Room) => boolean;
  free: (room: Room) => void;
}

export function createEffectRunner(deps: EffectRunnerDeps): (room: Room, effects: AssistantEffect[]) => void {
  const { options, answer, speaker, now } = deps;
  const run = (room: Room, effects: AssistantEffect[]) => {
    for (const effect of effects) {
      if (effect.type === 'audio') {
        const backlog = (room.ws.raw as { bufferedAmount?: number } | undefined)?.bufferedAmount ?? 0;
        if (backlog > MAX_SOCKET_BACKLOG) room.droppedFrames++;
        else room.ws.send(encode(room.assistant.format.format, effect.samples));
      } else if (effect.type === 'speak' || effect.type === 'answer') {
        if (room.pendingSays >= MAX_PENDING_SAYS) {
          const [error, what] =
            effect.type === 'speak' ? ['say_busy', 'say messages'] : ['answer_busy', 'questions'];
          room.ws.send(
            JSON.stringify({ type: 'error', error, message: `Still preparing the previous ${what}.` }),
          );
          continue;
        }
        room.pendingSays++;
        const kind = effect.type === 'speak' ? 'say' : 'answer';
        // Looking the answer up and synthesising it are slow: done here, then handed to the assistant.
        const text =
          effect.type === 'speak'
            ? Promise.resolve(effect.text)
            : answer(room.callId, effect.question).catch((error: unknown) => {
                options.logger?.warn('call room: answering failed', {
                  callId: room.callId,
                  error: String(error),
                });
                return "Sorry, I couldn't look that up.";
              });
        const endCallAfter = effect.type === 'speak' && effect.endCallAfterSpoken;
        void text.then(async (said) => {
          const samples = await speaker.speak(said, room.assistant.format.sampleRate);
          room.pendingSays--;
          if (deps.isCurrent(room)) run(room, room.assistant.say(samples, said, endCallAfter, now(), kind));
        });
      } else if (effect.type === 'record') {
        options.onMessage?.(room.callId, effect.message);
      } else if (effect.type === 'json') {
        room.ws.send(JSON.stringify(effect.message));
        const { message } = effect;
        if (message.type === 'status-update')
          options.onStatus?.(room.callId, {
            status: message.status === 'ended' ? 'ended' : 'in-progress',
            ...(message.endedReason ? { endedReason: message.endedReason as EndedReason } : {}),
          });
      } else {
        // The room is freed as soon as the call ends, before the closing handshake completes.
        deps.free(room);
        room.ws.close(effect.code, effect.reason);
      }
    }
  };
  return run;
}
