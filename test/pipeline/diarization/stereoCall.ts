import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { interleave, pcmWav, readPcmWav } from '../../helpers/pcmWav.js';

export const sharedAudio = (path: string) => resolve(packageRoot, '../shared/audio', path);
export const segmentationModelPath = resolve(packageRoot, '../shared/models/pyannote-segmentation-3.0.fp16.onnx');

export interface StereoCall {
  path: string;
  /** speaker1_a on the left: 0 s to `leftEndSeconds`. */
  leftEndSeconds: number;
  /** speaker2_a on the right. */
  rightStartSeconds: number;
  rightEndSeconds: number;
}

/**
 * A two-party stereo call from the shared clips, written in memory: speaker1_a on the left from
 * 0 s, speaker2_a on the right from `rightStartSeconds`. `crosstalk` (0..1) leaks each side into
 * the other; `dualMono` writes the mix of both on both channels instead, and `mono` with it the
 * mix as a mono file.
 */
export async function writeStereoCall(path: string, options: { rightStartSeconds: number; crosstalk?: number; dualMono?: boolean; mono?: boolean }): Promise<StereoCall> {
  const left = (await readPcmWav(sharedAudio('speakers/speaker1_a_en_16k.wav'))).samples;
  const right = (await readPcmWav(sharedAudio('speakers/speaker2_a_en_16k.wav'))).samples;
  const offset = Math.round(options.rightStartSeconds * 16000);
  // Half a second of silence after the last speech.
  const length = Math.max(left.length, offset + right.length) + 8000;
  const leftParty = new Int16Array(length);
  const rightParty = new Int16Array(length);
  leftParty.set(left);
  rightParty.set(right, offset);
  const leak = options.crosstalk ?? 0;
  const channels = options.dualMono
    ? [0, 1].map(() => Int16Array.from(leftParty, (sample, index) => Math.round((sample + rightParty[index]!) / 2)))
    : [
      Int16Array.from(leftParty, (sample, index) => Math.round(sample + leak * rightParty[index]!)),
      Int16Array.from(rightParty, (sample, index) => Math.round(sample + leak * leftParty[index]!)),
    ];
  await writeFile(path, options.mono ? pcmWav(channels[0]!) : pcmWav(interleave(...channels), { channels: 2 }));
  return { path, leftEndSeconds: left.length / 16000, rightStartSeconds: options.rightStartSeconds, rightEndSeconds: (offset + right.length) / 16000 };
}
