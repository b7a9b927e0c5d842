import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { decodeAudio } from '../../../src/pipeline/cleanup/decodeAudio.js';
import { resolveFfmpegBinaries } from '../../../src/pipeline/cleanup/ffmpegBinaries.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { createTestStageContext } from '../testStageContext.js';
import { generateUnderestimatedAac, probeStream } from './generateAudio.js';

// Needs the real ffmpeg (system or bundled).

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'decode-audio-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

const { ffmpegPath } = resolveFfmpegBinaries();

describe('decodeAudio with real ffmpeg', () => {
  it('reads no more than maxSeconds of a source, whatever length its header suggests', async () => {
    // ffprobe guesses about 10 s; it holds 90.
    const sourcePath = await generateUnderestimatedAac(join(folder, 'underestimated.aac'), 90);
    const monoPath = join(folder, 'bounded.wav');
    const outcome = await decodeAudio({ ffmpegPath, sourcePath, monoPath, maxSeconds: 31 }, createTestStageContext());

    expect(outcome.exitedCleanly).toBe(true);
    expect((await probeStream(monoPath)).durationSeconds).toBeCloseTo(31, 1);
  });

  it('reports the source loudness loudnorm measured before normalising', async () => {
    const sourcePath = resolve(packageRoot, '../shared/audio/jfk/jfk.wav');
    const outcome = await decodeAudio({ ffmpegPath, sourcePath, monoPath: join(folder, 'jfk.wav'), maxSeconds: 60 }, createTestStageContext());

    expect(outcome.sourceLoudnessLufs).toBeGreaterThan(-25);
    expect(outcome.sourceLoudnessLufs).toBeLessThan(-12);
  });

  it('fails as unavailable when the ffmpeg binary is missing', async () => {
    const attempt = decodeAudio({
      ffmpegPath: join(folder, 'no-such-ffmpeg'), sourcePath: join(folder, 'jfk.wav'), monoPath: join(folder, 'never.wav'), maxSeconds: 60,
    }, createTestStageContext());

    await expect(attempt).rejects.toBeInstanceOf(StageFailure);
    await expect(attempt).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
