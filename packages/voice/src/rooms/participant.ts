import type { DailyParticipant, DailyTrackState } from '@daily-co/daily-js';

/** The assistant's participant name: only its tracks are played. */
export const SPEAKER_NAME = 'Vapi Speaker';

const offTrack = (): DailyTrackState => ({ subscribed: false, state: 'off' });

/**
 * Builds a complete participant object in Daily's shape, for rooms that are not Daily (the
 * WebSocket room) and for the test fake. Only `session_id`, `user_name` and `local` matter to the
 * SDK; the rest has neutral defaults so `daily-participant-updated` listeners get the full shape.
 */
export function createRoomParticipant(
  fields: Pick<DailyParticipant, 'session_id'> & Partial<DailyParticipant>,
): DailyParticipant {
  return {
    audio: false,
    video: false,
    screen: false,
    tracks: { audio: offTrack(), video: offTrack(), screenAudio: offTrack(), screenVideo: offTrack() },
    user_id: fields.session_id,
    user_name: '',
    will_eject_at: new Date(0),
    local: false,
    owner: false,
    permissions: { hasPresence: true, canSend: true, canReceive: { base: true }, canAdmin: false },
    record: false,
    cam_info: {},
    screen_info: {},
    ...fields,
  };
}
