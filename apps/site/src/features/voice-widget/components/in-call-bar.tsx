import type { Ref } from 'react';
import { MicIcon, MicOffIcon } from './icons';
import { VoiceWave } from './voice-wave';
import { focusRing } from './widget-styles';

export interface InCallBarProps {
  speaking: boolean;
  /** The assistant's volume, 0..1 (the wave). */
  volume: number;
  muted: boolean;
  onToggleMute: () => void;
  onEnd: () => void;
  /** END: the control that keeps the focus across the widget's states. */
  endRef: Ref<HTMLButtonElement>;
}

/** The call's bar: the five-bar wave, 'Speaking' or 'Listening', the mute toggle and a red END. */
export function InCallBar({ speaking, volume, muted, onToggleMute, onEnd, endRef }: InCallBarProps) {
  return (
    <div className="flex items-center gap-3 rounded-full border border-white/15 bg-slate-950/90 py-2 pr-2 pl-4 text-white shadow-xl backdrop-blur">
      <VoiceWave volume={volume} />
      <span className="min-w-[4.75rem] text-sm font-medium tracking-wide">
        {speaking ? 'Speaking' : 'Listening'}
      </span>
      <button
        type="button"
        onClick={onToggleMute}
        aria-pressed={muted}
        aria-label="Mute microphone"
        title={muted ? 'Unmute microphone' : 'Mute microphone'}
        className={`rounded-full p-2 ${muted ? 'bg-amber-400 text-slate-950 hover:bg-amber-300' : 'bg-white/10 hover:bg-white/20'} ${focusRing}`}
      >
        {muted ? <MicOffIcon className="size-5" /> : <MicIcon className="size-5" />}
      </button>
      <button
        ref={endRef}
        type="button"
        onClick={onEnd}
        className={`rounded-full bg-red-600 px-5 py-2 text-sm font-bold tracking-widest text-white hover:bg-red-500 ${focusRing}`}
      >
        END
      </button>
    </div>
  );
}
