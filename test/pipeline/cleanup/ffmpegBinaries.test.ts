import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let folder: string;
const originalPath = process.env.PATH;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'ffmpeg-binaries-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });
afterEach(() => { process.env.PATH = originalPath; });

/** A fresh copy of the module (the resolution is cached per process), with only `folders` on PATH. */
async function resolveWithPath(...folders: string[]) {
  process.env.PATH = folders.join(delimiter);
  vi.resetModules();
  const { resolveFfmpegBinaries } = await import('../../../src/pipeline/cleanup/ffmpegBinaries.js');
  return resolveFfmpegBinaries;
}

async function fakeExecutables(name: string, executables: string[]): Promise<string> {
  const bin = join(folder, name);
  await mkdir(bin);
  for (const executable of executables) {
    await writeFile(join(bin, executable), '#!/bin/sh\nexit 0\n');
    await chmod(join(bin, executable), 0o755);
  }
  return bin;
}

describe('resolveFfmpegBinaries', () => {
  it('prefers ffmpeg and ffprobe found on PATH', async () => {
    const bin = await fakeExecutables('both', ['ffmpeg', 'ffprobe']);
    const resolveFfmpegBinaries = await resolveWithPath(bin);

    expect(resolveFfmpegBinaries()).toEqual({ ffmpegPath: join(bin, 'ffmpeg'), ffprobePath: join(bin, 'ffprobe'), source: 'system' });
  });

  it('uses the bundled pair when PATH has only one of them, and keeps its answer', async () => {
    const bin = await fakeExecutables('only-ffmpeg', ['ffmpeg']);
    const resolveFfmpegBinaries = await resolveWithPath(bin);
    const first = resolveFfmpegBinaries();

    expect(first.source).toBe('bundled');
    expect(first.ffmpegPath).toMatch(/@ffmpeg-installer/);
    expect(first.ffprobePath).toMatch(/@ffprobe-installer/);
    await fakeExecutables('late', ['ffmpeg', 'ffprobe']);
    process.env.PATH = join(folder, 'late');
    expect(resolveFfmpegBinaries()).toBe(first);
  });
});
