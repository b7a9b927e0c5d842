/** Current time in milliseconds since the Unix epoch; one seam so tests can reason about time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** Renders stored milliseconds as the API's ISO-8601 UTC timestamp with a trailing `Z`. */
export function toIsoTimestamp(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}
