import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Files under `<dataDir>/objects`, addressed by slash-separated keys such as
 * `calls/<callId>/audio.wav`. Writes land in `<dataDir>/tmp` first and are renamed into place
 * (atomic on one filesystem), so a reader or a crash never sees half an object. With several
 * nodes, `dataDir` is one shared mount (NFS/SMB) for all: `tmp` and `objects` are on it, so the
 * rename stays atomic. The interface is kept narrow (keys in, files out) so that another
 * backend (S3-compatible object storage) can stand behind it later.
 */
export class ObjectStore {
  readonly objectsDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.objectsDir = resolve(dataDir, 'objects');
    this.tmpDir = resolve(dataDir, 'tmp');
    mkdirSync(this.objectsDir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** Absolute path of a key; refuses keys that would escape the objects folder. */
  pathOf(key: string): string {
    const path = resolve(this.objectsDir, key);
    if (!path.startsWith(this.objectsDir + sep)) throw new Error('object key escapes the store');
    return path;
  }

  /** A fresh path in the temp folder for a write in progress. */
  newTempPath(suffix = '.part'): string {
    return join(this.tmpDir, `${randomUUID()}${suffix}`);
  }

  /** Moves a finished temp file into place under `key`. */
  async adoptTempFile(tempPath: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(tempPath, target);
  }

  /** Writes a JSON document durably (fsync before rename). */
  async writeJson(key: string, document: unknown): Promise<void> {
    const tempPath = this.newTempPath('.json');
    const handle = await open(tempPath, 'w');
    try {
      await handle.writeFile(JSON.stringify(document));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.adoptTempFile(tempPath, key);
  }

  async readJson<T = unknown>(key: string): Promise<T> {
    return JSON.parse(await readFile(this.pathOf(key), 'utf8')) as T;
  }

  /** Removes a key or a whole prefix folder; absent objects are not an error. */
  async remove(keyOrPrefix: string): Promise<void> {
    await rm(this.pathOf(keyOrPrefix), { recursive: true, force: true });
  }

  /**
   * Deletes leftovers of writes that never finished (e.g. uploads cut by a crash). With
   * `changedBefore` (ms since the epoch), only those last changed before it: on shared storage
   * another node may be writing its own temp files right now.
   */
  async clearTemp(options: { changedBefore?: number } = {}): Promise<number> {
    const { changedBefore } = options;
    let removed = 0;
    for (const entry of await readdir(this.tmpDir).catch(() => [] as string[])) {
      const path = join(this.tmpDir, entry);
      if (changedBefore !== undefined) {
        const changed = await stat(path).then((stats) => stats.mtimeMs, () => undefined);
        if (changed === undefined || changed >= changedBefore) continue;
      }
      await rm(path, { recursive: true, force: true });
      removed += 1;
    }
    await mkdir(this.tmpDir, { recursive: true });
    return removed;
  }

  /** Writes, renames and removes a small probe file: throws when the storage cannot take a write now (readiness). */
  async probeWrite(): Promise<void> {
    const tempPath = this.newTempPath('.probe');
    const probePath = `${tempPath}.done`;
    try {
      await writeFile(tempPath, 'probe');
      await rename(tempPath, probePath);
    } finally {
      await rm(tempPath, { force: true });
      await rm(probePath, { force: true });
    }
  }
}

/** Object keys of one call: everything of a call lives under one prefix, removed as one. */
export const callObjectKeys = {
  prefix: (callId: string) => `calls/${callId}`,
  audio: (callId: string, format: string) => `calls/${callId}/original.${format}`,
  artifact: (callId: string, kind: 'transcript' | 'analysis') => `calls/${callId}/${kind}.json`,
};
