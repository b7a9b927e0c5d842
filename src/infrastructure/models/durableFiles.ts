import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Flushes a file's data to the disk. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Renames a finished file into place and flushes the folder, so that after a crash the target
 * is either the old file or the whole new one. Both must be on one filesystem.
 */
export async function moveIntoPlace(sourcePath: string, targetPath: string): Promise<void> {
  await rename(sourcePath, targetPath);
  let folder: FileHandle | undefined;
  try {
    folder = await open(dirname(targetPath), 'r');
    await folder.sync();
  } catch {
    // Some filesystems refuse fsync on a folder; the rename itself is still atomic.
  } finally {
    await folder?.close();
  }
}

/** Writes a file durably: a temp file beside it, fsynced, renamed into place (the whole of `data` in memory). */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tempPath = join(dirname(path), `.${randomUUID()}.tmp`);
  try {
    const handle = await open(tempPath, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await moveIntoPlace(tempPath, path);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}
