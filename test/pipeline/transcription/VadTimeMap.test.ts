import { describe, expect, it } from 'vitest';
import { VadTimeMap } from '../../../src/pipeline/transcription/VadTimeMap.js';
import { fixture } from './transcriptionTestFiles.js';

const map = VadTimeMap.fromWhisperLog(fixture('vad-stderr.txt').split('\n'))!;

describe('VadTimeMap', () => {
  it('is rebuilt from the vad_segment_info lines whisper-cli prints, and absent without them', () => {
    expect(map).toBeDefined();
    expect(VadTimeMap.fromWhisperLog(['whisper_print_progress_callback: progress =  50%'])).toBeUndefined();
  });

  // jfk.wav's speech: 0.32-2.27, 3.27-4.41, 5.38-7.68, 8.16-10.62 s in the recording; 0-1.95,
  // 2.15-3.29, 3.49-5.79, 5.99-8.45 s in the shortened audio whisper decoded.
  it.each([
    [0, 320], [190, 510], [1950, 2270], [2150, 3270], [2200, 3320], [3490, 5380], [3500, 5390], [5990, 8160], [6000, 8170], [8450, 10620],
  ])('maps processed %i ms to %i ms in the recording', (processedMs, originalMs) => {
    expect(map.toOriginal(processedMs)).toBeCloseTo(originalMs, 6);
  });

  it('maps the 0.1 s of silence whisper puts between two pieces across the whole gap, and the tail of a piece to its end', () => {
    expect(map.toOriginal(2000)).toBe(2270); // overlap whisper adds after a piece: still its end
    expect(map.toOriginal(2100)).toBe(2770); // half-way through the joining silence: half-way through the gap
  });

  it('clamps times outside the table to its ends, as whisper.cpp does', () => {
    expect(map.toOriginal(-50)).toBe(320);
    expect(map.toOriginal(20_000)).toBe(10_620);
  });
});
