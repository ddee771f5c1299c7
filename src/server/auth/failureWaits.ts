/** How the waits of the per-account failure counts (second factor, password) are told to people. */

/** When the next attempt may come, as people read it: a UTC time, to the minute (rounded up). */
export function readableMoment(at: Date): string {
  const up = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  return `${up.toISOString().slice(0, 10)} ${up.toISOString().slice(11, 16)} UTC`;
}

/** A wait in seconds, as people read it: seconds up to a minute, minutes beyond. */
export function waitWords(seconds: number): string {
  if (seconds <= 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** Seconds from now until `at`, at least one (a Retry-After). */
export function secondsUntil(at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
}
