import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { StageFailure } from '../StageFailure.js';

export interface FfmpegBinaries {
  ffmpegPath: string;
  ffprobePath: string;
  /** `system`: both found on `PATH` (the distribution's build); `bundled`: the npm installer packages. */
  source: 'system' | 'bundled';
}

let resolved: FfmpegBinaries | undefined;

/**
 * The ffmpeg and ffprobe to run, resolved once per process: the system's when both are on
 * `PATH` (usually newer, and patched by the distribution), else the binaries shipped by
 * `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe`. The pair is never mixed, so
 * ffprobe's view of a file matches what ffmpeg will decode.
 */
export function resolveFfmpegBinaries(): FfmpegBinaries {
  resolved ??= findOnPath() ?? loadBundled();
  return resolved;
}

function findOnPath(): FfmpegBinaries | undefined {
  const ffmpegPath = findExecutable('ffmpeg');
  const ffprobePath = findExecutable('ffprobe');
  return ffmpegPath && ffprobePath ? { ffmpegPath, ffprobePath, source: 'system' } : undefined;
}

function findExecutable(name: string): string | undefined {
  const fileName = process.platform === 'win32' ? `${name}.exe` : name;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, fileName);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this folder (or not executable): keep looking.
    }
  }
  return undefined;
}

function loadBundled(): FfmpegBinaries {
  // The installer packages are CommonJS and throw on a platform they have no binary for.
  const require = createRequire(import.meta.url);
  try {
    const ffmpeg = require('@ffmpeg-installer/ffmpeg') as { path: string };
    const ffprobe = require('@ffprobe-installer/ffprobe') as { path: string };
    return { ffmpegPath: ffmpeg.path, ffprobePath: ffprobe.path, source: 'bundled' };
  } catch (error) {
    throw new StageFailure('unavailable', 'ffmpeg is not installed on this machine', { cause: error });
  }
}
