/** Synthetic audio for the rooms' tests and benchmark. */

/** A sine tone as 16-bit samples: a stand-in for a voiced utterance. */
export function tone(ms: number, rate: number, amplitude = 0.3, hz = 440): Int16Array {
  const n = Math.round((ms * rate) / 1000);
  return Int16Array.from({ length: n }, (_, i) =>
    Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * amplitude * 32_767),
  );
}

/** Digital silence. */
export const silence = (ms: number, rate: number): Int16Array =>
  new Int16Array(Math.round((ms * rate) / 1000));

/** Splits samples into frames of `ms` milliseconds (the last may be shorter). */
export function frames(samples: Int16Array, ms: number, rate: number): Int16Array[] {
  const size = Math.round((ms * rate) / 1000);
  const out: Int16Array[] = [];
  for (let i = 0; i < samples.length; i += size) out.push(samples.subarray(i, i + size));
  return out;
}
