/** Something holding native memory (an ONNX session, a loaded LLM) that must be freed explicitly. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/**
 * Long-lived resources of one worker thread, created on first use and kept for the thread's
 * life, so a model loads once per thread rather than once per call.
 */
export class WorkerResources {
  private readonly resources = new Map<string, Promise<Disposable>>();

  /** The resource under `key`, created by `create` the first time (a failed creation is retried next time). */
  get<T extends Disposable>(key: string, create: () => Promise<T>): Promise<T> {
    let resource = this.resources.get(key);
    if (!resource) {
      resource = create().catch((error: unknown) => {
        this.resources.delete(key);
        throw error;
      });
      this.resources.set(key, resource);
    }
    return resource as Promise<T>;
  }

  /** Frees every resource; returns how many were freed. */
  async disposeAll(): Promise<number> {
    const pending = [...this.resources.values()];
    this.resources.clear();
    let freed = 0;
    for (const resource of pending) {
      try {
        await (await resource).dispose();
        freed += 1;
      } catch {
        // A resource that failed to load or to free holds nothing we can release.
      }
    }
    return freed;
  }
}

/** The resources of the current thread (one instance per worker thread). */
export const threadResources = new WorkerResources();
