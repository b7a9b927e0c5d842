/**
 * Tells the processing engine that a call was queued, so it starts at once instead of at its
 * next poll. Uploads (and reprocessing in the same process) notify; the engine listens.
 */
export class QueueSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Returns the function that stops listening. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
