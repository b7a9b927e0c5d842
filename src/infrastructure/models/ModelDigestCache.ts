import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { writeFileAtomically } from './durableFiles.js';

/** A file's length and SHA-256. */
export interface FileDigest {
  sizeBytes: number;
  /** Lower-case hex. */
  sha256: string;
}

const KnownDigestSchema = Type.Object({
  sizeBytes: Type.Integer({ minimum: 0 }),
  mtimeMs: Type.Number(),
  // Required: a cache file written before it was recorded fails the schema and is started afresh
  // (each model is hashed once more), rather than trusted on size and mtime alone.
  ctimeMs: Type.Number(),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
/** `<DATA_DIR>/models-verified.json`: digests by absolute path, valid while the file's version ({@link sameFileVersion}) is unchanged. */
const VerifiedFilesSchema = Type.Object({ version: Type.Literal(1), files: Type.Record(Type.String(), KnownDigestSchema) });
interface KnownDigest { sizeBytes: number; mtimeMs: number; ctimeMs: number; sha256: string }

/** What identifies one version of a file's content without reading it. */
export interface FileVersion { sizeBytes: number; mtimeMs: number; ctimeMs: number }

/** The version of the file `stats` describe. */
export function fileVersionOf(stats: Stats): FileVersion {
  return { sizeBytes: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/**
 * Whether two versions are taken for the same content. Size and mtime alone are not enough:
 * `touch -r`, `cp -p` or `rsync -a` over a good file keep them while the bytes differ (a damaged
 * copy written with the original's timestamps would pass as verified, across restarts). The
 * change time cannot be set back, and any write, rename or timestamp change moves it.
 */
export function sameFileVersion(a: FileVersion, b: FileVersion): boolean {
  return a.sizeBytes === b.sizeBytes && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Digests known in this process, by absolute path. Shared by every cache instance: a digest
 * of a path with a given size and mtime holds whichever data folder asked for it.
 */
const knownDigests = new Map<string, KnownDigest>();
/** Hashes under way, so concurrent callers (readiness, a stage) share one pass over a large file. */
const hashesUnderWay = new Map<string, Promise<string>>();

/**
 * SHA-256 of model files, hashed once: answers from memory, else from the cache file, else by
 * reading the file (a 500 MB model takes 1–2 s) and remembering the result. An entry is used
 * only while the file's version (size, mtime and change time) is the one it was hashed at, so a
 * replaced, truncated or rewritten file is hashed again. Writing the cache file is best effort:
 * a read-only data folder only costs a hash per process.
 */
export class ModelDigestCache {
  /** Files this instance read to hash (not answered from memory or the cache file). */
  hashedFiles = 0;
  private cacheFileRead: Promise<void> | undefined;

  /** @param cacheFile The JSON file digests are kept in across processes. Defaults to none (memory only). */
  constructor(private readonly cacheFile?: string) {}

  /** The file's digest, or undefined when there is no file at `path`. */
  async digest(path: string): Promise<FileDigest | undefined> {
    const absolute = resolve(path);
    const stats = await fileStats(absolute);
    if (!stats) return undefined;
    await this.readCacheFile();
    const version = fileVersionOf(stats);
    const known = knownDigests.get(absolute);
    if (known && sameFileVersion(known, version)) return { sizeBytes: known.sizeBytes, sha256: known.sha256 };

    const key = `${absolute}\0${version.sizeBytes}\0${version.mtimeMs}\0${version.ctimeMs}`;
    let underWay = hashesUnderWay.get(key);
    if (!underWay) {
      this.hashedFiles++;
      underWay = sha256OfFile(absolute).finally(() => hashesUnderWay.delete(key));
      hashesUnderWay.set(key, underWay);
    }
    const sha256 = await underWay;
    const after = await fileStats(absolute);
    // A file written to while it was hashed gives a digest of neither version: not remembered.
    if (after && sameFileVersion(fileVersionOf(after), version)) await this.remember(absolute, after, sha256);
    return { sizeBytes: stats.size, sha256 };
  }

  /** Records the digest of a file just written and verified (fetch, import), so it is not hashed again. */
  async rememberVerified(path: string, sha256: string): Promise<void> {
    const absolute = resolve(path);
    const stats = await fileStats(absolute);
    if (stats) await this.remember(absolute, stats, sha256);
  }

  private async remember(absolute: string, stats: Stats, sha256: string): Promise<void> {
    const entry = { ...fileVersionOf(stats), sha256 };
    knownDigests.set(absolute, entry);
    if (!this.cacheFile) return;
    try {
      const stored = await readVerifiedFiles(this.cacheFile);
      stored.files[absolute] = entry;
      await writeFileAtomically(this.cacheFile, `${JSON.stringify(stored, null, 1)}\n`);
    } catch {
      // Best effort, see the class comment.
    }
  }

  private readCacheFile(): Promise<void> {
    this.cacheFileRead ??= (async () => {
      if (!this.cacheFile) return;
      const stored = await readVerifiedFiles(this.cacheFile);
      for (const [path, entry] of Object.entries(stored.files)) if (!knownDigests.has(path)) knownDigests.set(path, entry);
    })();
    return this.cacheFileRead;
  }
}

const cachesByDataDir = new Map<string, ModelDigestCache>();

/**
 * The process's digest cache for a data folder (kept in `<dataDir>/models-verified.json`), or
 * the memory-only one without a folder. Every caller in a process shares the digests in memory.
 */
export function digestCacheFor(dataDir?: string): ModelDigestCache {
  const cacheFile = dataDir === undefined ? '' : resolve(verifiedFilesPath(dataDir));
  let cache = cachesByDataDir.get(cacheFile);
  if (!cache) {
    cache = new ModelDigestCache(cacheFile || undefined);
    cachesByDataDir.set(cacheFile, cache);
  }
  return cache;
}

/** SHA-256 of a whole file, streamed (constant memory, the event loop stays free between chunks). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's stats, or undefined when there is no file at `path`. */
export async function fileStats(path: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The cache file's content; empty when it is missing or unreadable (it is only a cache). */
async function readVerifiedFiles(path: string): Promise<{ version: 1; files: Record<string, KnownDigest> }> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (Value.Check(VerifiedFilesSchema, parsed)) return parsed;
  } catch {
    // Missing or damaged: start afresh.
  }
  return { version: 1, files: {} };
}

/** The verification cache file of a data folder. */
export function verifiedFilesPath(dataDir: string): string {
  return join(dataDir, 'models-verified.json');
}
