/**
 * Fault testing: named places in the code where the service can be told (`FAULT_HOLD_AT`) to stop
 * and wait, so that a test can SIGKILL it in a known state (as failpoints do in TiKV or
 * FoundationDB). Unarmed, a hold point costs one set lookup and does nothing. Production
 * installs never arm them; the service logs a warning when they are.
 *
 * - `upload.accept`: an upload's audio is in place under `objects/`, its call row not yet committed.
 * - `stage.<name>`: a processing stage has started (its RUNNING event is written), e.g. `stage.analysis`.
 * - `results.store`: a run's transcript and analysis documents are written, their rows and the
 *   COMPLETED status not yet committed.
 */
export type HoldPointName = 'upload.accept' | 'results.store' | `stage.${string}`;

/** A {@link HoldPointName} as a regular-expression alternation (`FAULT_HOLD_AT` is checked against it). */
export const holdPointNamePattern = String.raw`upload\.accept|results\.store|stage\.[A-Za-z]+`;

let armed: ReadonlySet<string> = new Set();
let reached: (name: HoldPointName) => void = () => undefined;

/** Arms the named points (replacing any armed before); `onReached` is told each time one holds. */
export function armHoldPoints(names: readonly string[], onReached: (name: HoldPointName) => void = () => undefined): void {
  armed = new Set(names);
  reached = onReached;
}

/** The comma-separated `FAULT_HOLD_AT` value as point names (empty entries dropped). */
export function holdPointsOf(setting: string | undefined): string[] {
  return (setting ?? '').split(',').map((name) => name.trim()).filter((name) => name.length > 0);
}

/**
 * Returns at once unless `name` is armed; then waits until `signal` aborts (rejecting with its
 * reason), or forever without one: the process is meant to be killed here.
 */
export async function holdPoint(name: HoldPointName, signal?: AbortSignal): Promise<void> {
  if (!armed.has(name)) return;
  reached(name);
  await new Promise<never>((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
