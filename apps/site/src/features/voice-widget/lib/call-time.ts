/**
 * The call timer's text: minutes and seconds ("0:07", "12:30"), with hours past the hour
 * ("1:02:05"). Negative or non-finite durations (a clock set back) read as 0:00.
 */
export function formatCallTime(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
