/**
 * A duration for people: "38 ms", "1.6 s", "4 min 12 s", "2 h 5 min". A run of a few items takes
 * milliseconds, which "0.0 s" would misreport as nothing; a night's run takes hours, which "7512.4 s"
 * leaves to be worked out.
 */
export function durationText(seconds: number): string {
  if (seconds < 0.1) return `${Math.max(1, Math.round(seconds * 1000))} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}
