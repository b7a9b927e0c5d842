import type { Config } from '../../config/configSchema.js';
import { probeHttp } from '../health/probeHttp.js';
import { defaultFetchSlots, downloadUrlOf, fetchModels, type ModelFetchResult } from './fetchModels.js';
import { recommendedEntry } from './inspectSlot.js';
import type { ModelManifest, ModelSlot } from './manifestSchema.js';
import { modelDisplayName } from './resolveModelPath.js';

/** Who started a download: the service at start (`MODELS_AUTO_FETCH`) or an admin on the Models page. */
export type DownloadTrigger = 'start' | 'admin';

/** One model of a download, as the admin page and the terminal bar show it. */
export interface ModelDownloadItem {
  slot: ModelSlot;
  entry: string;
  /** `waiting`: not reached yet; then `downloading`, and one of the fetch outcomes. */
  state: 'waiting' | 'downloading' | ModelFetchResult['outcome'];
  receivedBytes: number;
  /** From the manifest (or the server); null when neither says. */
  totalBytes: number | null;
  /** The fetch's word on it once it ended (what was installed, or why not). */
  message: string | null;
  warning: string | null;
  /** Where it is installed, relative to the install folder (never an absolute path). */
  target: string | null;
}

/**
 * The latest download: `running`, then `finished` (each item says how it went) or `offline`
 * (the download host did not answer: nothing was tried; `unreachable` names the host).
 */
export interface ModelDownloadSnapshot {
  state: 'idle' | 'running' | 'finished' | 'offline';
  trigger: DownloadTrigger | null;
  startedAt: string | null;
  finishedAt: string | null;
  unreachable: string | null;
  items: ModelDownloadItem[];
}

/** How long the reachability probe waits for the download host, ms: a site that drops packets must not stall the start. */
const probeTimeoutMs = 5000;

export interface ModelDownloadsOptions {
  /** The manifest; a function so the installed one is read only when a download starts. */
  manifest: () => Promise<ModelManifest>;
  /** Called after every change of the snapshot (progress, an item's end, the end). */
  onChange?: (snapshot: ModelDownloadSnapshot) => void;
  /** Called when a download has installed at least one model (the engine looks at its queue again). */
  onInstalled?: () => void;
  /** The lock file downloads are recorded in. Defaults to `models/manifest.lock.json` in the install folder. */
  lockPath?: string;
}

/**
 * The box's model downloads, one at a time: the recommended models of `callscope models fetch`
 * (segmentation, whisper, VAD, speaker embeddings), fetched in the background into their
 * configured paths, resumable and SHA-256-checked (see {@link fetchModels}), with a snapshot of
 * the progress that the admin page polls and the terminal bar draws. A second start while one
 * runs joins it.
 */
export class ModelDownloads {
  private current: ModelDownloadSnapshot = { state: 'idle', trigger: null, startedAt: null, finishedAt: null, unreachable: null, items: [] };
  private running: Promise<ModelDownloadSnapshot> | undefined;
  private readonly listeners = new Set<(snapshot: ModelDownloadSnapshot) => void>();

  constructor(private readonly config: Pick<Config, 'DATA_DIR' | 'MODELS_MIRROR_URL' | 'SEGMENTATION_MODEL' | 'WHISPER_MODEL' | 'EMBEDDING_MODEL' | 'VAD_MODEL' | 'LLM_MODEL'>, private readonly options: ModelDownloadsOptions) {}

  snapshot(): ModelDownloadSnapshot {
    return structuredClone(this.current);
  }

  /** Calls `listener` on every change until the returned function is called. */
  listen(listener: (snapshot: ModelDownloadSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a download of `slots` (default: the recommended set), or joins the one running; resolves when it ends. */
  start(trigger: DownloadTrigger, slots: readonly ModelSlot[] = defaultFetchSlots): Promise<ModelDownloadSnapshot> {
    if (!this.running) {
      // Running from this moment (its items follow once the manifest is read), so a caller's snapshot says so.
      this.current = { state: 'running', trigger, startedAt: new Date().toISOString(), finishedAt: null, unreachable: null, items: [] };
      this.running = this.run(slots).catch((error: unknown) => {
        // Say so on every model not done yet (the error itself may name paths: the caller logs it).
        const message = 'the download stopped unexpectedly; see the service log, then try again (downloads resume)';
        for (const item of this.current.items) if (item.state === 'waiting' || item.state === 'downloading') Object.assign(item, { state: 'failed', message });
        this.finish({ state: 'finished' });
        throw error;
      }).finally(() => { this.running = undefined; });
    }
    return this.running;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  private async run(slots: readonly ModelSlot[]): Promise<ModelDownloadSnapshot> {
    const manifest = await this.options.manifest();
    const entries = slots.map((slot) => recommendedEntry(manifest, slot));
    this.current.items = entries.map((entry) => ({ slot: entry.slot, entry: entry.name, state: 'waiting', receivedBytes: 0, totalBytes: entry.size, message: null, warning: null, target: null }));
    this.changed();

    const firstUrl = entries.find((entry) => entry.url !== null)?.url;
    const probeUrl = firstUrl ? downloadUrlOf(firstUrl, this.config.MODELS_MIRROR_URL) : undefined;
    if (probeUrl && !(await probeHttp(probeUrl, { method: 'HEAD', timeoutMs: probeTimeoutMs })).answering) {
      this.finish({ state: 'offline', unreachable: new URL(probeUrl).host });
      return this.snapshot();
    }

    const itemOf = (name: string) => this.current.items.find((item) => item.entry === name);
    const results = await fetchModels(this.config, manifest, {
      slots,
      ...(this.options.lockPath ? { lockPath: this.options.lockPath } : {}),
      ...(this.config.MODELS_MIRROR_URL ? { mirrorUrl: this.config.MODELS_MIRROR_URL } : {}),
      onProgress: (entry, receivedBytes, totalBytes) => {
        const item = itemOf(entry.name);
        if (!item) return;
        Object.assign(item, { state: 'downloading', receivedBytes, totalBytes });
        this.changed();
      },
      onResult: (result) => {
        const item = itemOf(result.entry);
        if (!item) return;
        Object.assign(item, {
          state: result.outcome, message: result.message, warning: result.warning ?? null, target: modelDisplayName(result.target),
          ...(result.outcome === 'downloaded' && item.totalBytes !== null ? { receivedBytes: item.totalBytes } : {}),
        });
        this.changed();
      },
    });
    this.finish({ state: 'finished' });
    if (results.some((result) => result.outcome === 'downloaded')) this.options.onInstalled?.();
    return this.snapshot();
  }

  private finish(update: Pick<ModelDownloadSnapshot, 'state'> & Partial<ModelDownloadSnapshot>): void {
    this.current = { ...this.current, ...update, finishedAt: new Date().toISOString() };
    this.changed();
  }

  private changed(): void {
    const snapshot = this.snapshot();
    this.options.onChange?.(snapshot);
    for (const listener of this.listeners) listener(snapshot);
  }
}

/**
 * Bytes received and expected over the items that are or may be downloaded (not those found
 * installed already, kept, or failed); `total` is null while any of their sizes is unknown.
 */
export function downloadTotals(snapshot: ModelDownloadSnapshot): { received: number; total: number | null } {
  const items = snapshot.items.filter((item) => item.state === 'waiting' || item.state === 'downloading' || item.state === 'downloaded');
  const received = items.reduce((sum, item) => sum + item.receivedBytes, 0);
  const total = items.every((item) => item.totalBytes !== null) ? items.reduce((sum, item) => sum + item.totalBytes!, 0) : null;
  return { received, total };
}
