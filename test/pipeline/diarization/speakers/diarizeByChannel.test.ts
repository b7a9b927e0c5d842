import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diarizeByChannel } from '../../../../src/pipeline/diarization/speakers/diarizeByChannel.js';
import { writeStereoCall } from '../stereoCall.js';

// Real speech from ../shared/audio/speakers, one party per channel; no model needed.

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'diarize-by-channel-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

const turnOptions = { maxGapSeconds: 0.25, minTurnSeconds: 0.25 };

describe('diarizeByChannel', () => {
  it('gives each channel\'s voice activity as one speaker, overlap included', async () => {
    const call = await writeStereoCall(join(folder, 'overlap.wav'), { rightStartSeconds: 6 });
    const result = await diarizeByChannel(call.path, turnOptions);
    expect(result.separated).toBe(true);
    const left = result.runs.filter((run) => run.speaker === 0);
    const right = result.runs.filter((run) => run.speaker === 1);
    expect(left[0]!.startSeconds).toBeLessThan(0.5);
    expect(left.at(-1)!.endSeconds).toBeGreaterThan(call.leftEndSeconds - 0.6);
    expect(left.at(-1)!.endSeconds).toBeLessThan(call.leftEndSeconds + 0.1);
    expect(right[0]!.startSeconds).toBeGreaterThan(call.rightStartSeconds - 0.1);
    expect(right[0]!.startSeconds).toBeLessThan(call.rightStartSeconds + 0.6);
    expect(right.at(-1)!.endSeconds).toBeLessThan(call.rightEndSeconds + 0.1);
    // Both talk between 6 s and the end of the left clip.
    expect(left.some((run) => run.endSeconds > 6.5) && right.some((run) => run.startSeconds < 7)).toBe(true);
  });

  it('ignores crosstalk 20 dB down in the other party\'s channel', async () => {
    const call = await writeStereoCall(join(folder, 'crosstalk.wav'), { rightStartSeconds: 8.3, crosstalk: 0.1 });
    const result = await diarizeByChannel(call.path, turnOptions);
    expect(result.separated).toBe(true);
    expect(result.runs.filter((run) => run.speaker === 0).every((run) => run.endSeconds < call.leftEndSeconds + 0.1)).toBe(true);
    expect(result.runs.filter((run) => run.speaker === 1).every((run) => run.startSeconds > call.rightStartSeconds - 0.1)).toBe(true);
  });

  it('does not split a dual-mono recording (the same mix on both channels) by channel', async () => {
    const call = await writeStereoCall(join(folder, 'dual-mono.wav'), { rightStartSeconds: 8.3, dualMono: true });
    const result = await diarizeByChannel(call.path, turnOptions);
    expect(result).toMatchObject({ separated: false, runs: [] });
    expect(result.oneSidedShare).toBeLessThan(0.1);
  });
});
