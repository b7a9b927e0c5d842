import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeFbank } from '../../../../src/pipeline/diarization/models/computeFbank.js';
import { runPythonReference } from '../../../../scripts/models/runPythonReference.js';
import { sharedAudio } from '../stereoCall.js';

// The fbank front end of WeSpeaker / CAM++ models against kaldi-native-fbank (PyPI, in the
// reference environment `npm run models:eval -- --only python-reference` makes; the test command
// makes it), on real recordings: the same samples to both, every value compared.
// kaldi-native-fbank computes in float32: in a bin more than about 90 dB below its frame's
// loudest (the quiet top of the spectrum under a loud vowel) its log energy carries its own
// rounding, up to 4e-3 on jfk.wav with the povey window (37 of 87,840 values, all 92–98 dB down;
// within 50 dB of the frame's loudest the largest difference is 1.4e-4). So 1e-3 is asserted
// wherever the bin is within 80 dB of its frame's loudest, and 1e-2 everywhere.

/** A bin this far below its frame's loudest (dB) is below the reference's float32 precision. */
const REFERENCE_RANGE_DB = 80;

const folder = await mkdtemp(join(tmpdir(), 'fbank-reference-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

/** A 16-bit mono WAV's samples on the 16-bit integer scale (the shared recordings have a 44-byte header). */
async function integerSamples(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  return Float32Array.from({ length: (bytes.length - 44) / 2 }, (_, index) => bytes.readInt16LE(44 + 2 * index));
}

describe('computeFbank agrees with kaldi-native-fbank', () => {
  for (const window of ['povey', 'hamming'] as const) {
    it(`to 1e-3 on the log energies of two real recordings (${window} window, 80 bins)`, async () => {
      const recordings = await Promise.all(['jfk/jfk.wav', 'pyannote-sample/sample.wav'].map(async (file, index) => {
        const samples = await integerSamples(sharedAudio(file));
        const path = join(folder, `${window}-${index}.f32`);
        await writeFile(path, Buffer.from(samples.buffer));
        return { id: file, path, samples };
      }));
      const reference = JSON.parse(await runPythonReference('kaldiFbankReference.py', {
        window, melBins: 80, recordings: recordings.map(({ id, path }) => ({ id, path })),
      })) as Record<string, { frames: number; features: number[] }>;
      for (const { id, samples } of recordings) {
        const ours = computeFbank(samples, { window, melBins: 80 });
        const theirs = reference[id]!;
        expect(ours.frames).toBe(theirs.frames);
        let largestInRange = 0;
        let largest = 0;
        for (let frame = 0; frame < ours.frames; frame++) {
          const row = ours.features.subarray(frame * 80, (frame + 1) * 80);
          const loudest = Math.max(...row);
          row.forEach((value, bin) => {
            const difference = Math.abs(value - theirs.features[frame * 80 + bin]!);
            largest = Math.max(largest, difference);
            // Natural-log energies: 10 / ln 10 dB per unit.
            if (((loudest - value) * 10) / Math.LN10 <= REFERENCE_RANGE_DB) largestInRange = Math.max(largestInRange, difference);
          });
        }
        expect(largestInRange, `${id}: largest difference within ${REFERENCE_RANGE_DB} dB of the frame's loudest bin`).toBeLessThanOrEqual(1e-3);
        expect(largest, `${id}: largest difference`).toBeLessThanOrEqual(1e-2);
      }
    });
  }
});
