/** Relative height of each of the five bars: the middle one moves most. */
const BAR_WEIGHTS = [0.45, 0.75, 1, 0.75, 0.45] as const;

/** The in-call wave: five bars whose height follows the assistant's volume level (0..1). */
export function VoiceWave({ volume }: { volume: number }) {
  return (
    <span aria-hidden="true" data-testid="voice-wave" className="flex h-6 items-end gap-[3px]">
      {BAR_WEIGHTS.map((weight, index) => (
        <span
          key={index}
          data-testid="voice-wave-bar"
          className="h-full w-1 origin-bottom rounded-full bg-sky-400 transition-transform duration-100 ease-out"
          style={{ transform: `scaleY(${(0.15 + 0.85 * weight * volume).toFixed(3)})` }}
        />
      ))}
    </span>
  );
}
