import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLevels, SILENCE_FLOOR_DBFS } from '../../../src/pipeline/cleanup/measureLevels.js';
import { interleave, pcmWav, sine } from '../../helpers/pcmWav.js';

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'measure-levels-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

async function measure(name: string, file: Buffer) {
  const path = join(folder, name);
  await writeFile(path, file);
  return measureLevels({ path });
}

describe('measureLevels', () => {
  it('reports an empty data chunk as 0 seconds of silence', async () => {
    const levels = await measure('empty.wav', pcmWav(new Int16Array(0)));
    expect(levels).toEqual({
      durationSeconds: 0, channels: 1, peakDbfs: SILENCE_FLOOR_DBFS, rmsDbfs: SILENCE_FLOOR_DBFS, activeFraction: 0, channelActiveFractions: [0],
    });
  });

  it('reports digital silence at the floor, with no active frames', async () => {
    const levels = await measure('silence.wav', pcmWav(new Int16Array(16000 * 3)));
    expect(levels.durationSeconds).toBe(3);
    expect(levels.peakDbfs).toBe(SILENCE_FLOOR_DBFS);
    expect(levels.rmsDbfs).toBe(SILENCE_FLOOR_DBFS);
    expect(levels.activeFraction).toBe(0);
  });

  it('measures a full-scale square wave at 0 dBFS peak and RMS', async () => {
    const square = Int16Array.from({ length: 16000 }, (_, index) => (Math.floor(index / 40) % 2 === 0 ? 32767 : -32768));
    const levels = await measure('square.wav', pcmWav(square));
    expect(levels.peakDbfs).toBeCloseTo(0, 3);
    expect(levels.rmsDbfs).toBeCloseTo(0, 3);
    expect(levels.activeFraction).toBe(1);
  });

  it('measures a -20 dBFS sine at about -23 dBFS RMS (peak / √2)', async () => {
    const levels = await measure('sine.wav', pcmWav(sine(1000, 2, 0.1)));
    expect(levels.peakDbfs).toBeCloseTo(-20, 1);
    expect(levels.rmsDbfs).toBeCloseTo(-23.01, 1);
    expect(levels.durationSeconds).toBe(2);
  });

  it('counts a tone quieter than the activity threshold as inactive', async () => {
    // -60 dBFS peak: a quiet line's noise floor, not speech.
    const levels = await measure('quiet.wav', pcmWav(sine(1000, 1, 0.001)));
    expect(levels.activeFraction).toBe(0);
  });

  it('finds the data chunk behind an odd-sized LIST chunk', async () => {
    const list = { id: 'LIST', body: Buffer.from('INFOISFT\x05\x00\x00\x00Lavf\x00', 'latin1') };
    const withList = await measure('list.wav', pcmWav(sine(440, 1, 0.5), { chunksBeforeData: [list] }));
    const without = await measure('plain.wav', pcmWav(sine(440, 1, 0.5)));
    expect(list.body.length % 2).toBe(1);
    expect(withList).toEqual(without);
  });

  it('reads a file longer than its read chunk the same way throughout, channels kept apart', async () => {
    // 24 s of stereo (1.5 MB, past the 1 MiB read chunk, whose end falls mid-frame at 16.4 s):
    // the left channel speaks for the first 18 s, the right for the last 6 s.
    const left = new Int16Array(16000 * 24);
    left.set(sine(300, 18, 0.5));
    const right = new Int16Array(16000 * 24);
    right.set(sine(500, 6, 0.5), 16000 * 18);
    const levels = await measure('long-stereo.wav', pcmWav(interleave(left, right), { channels: 2 }));

    expect(levels.durationSeconds).toBe(24);
    expect(levels.channels).toBe(2);
    expect(levels.channelActiveFractions[0]).toBeCloseTo(0.75, 2);
    expect(levels.channelActiveFractions[1]).toBeCloseTo(0.25, 2);
    expect(levels.activeFraction).toBe(1);
    // Each channel carries its sine a share of the time: mean power 0.125 × (0.75 + 0.25) / 2.
    expect(levels.rmsDbfs).toBeCloseTo(10 * Math.log10(0.0625), 1);
  });

  it('reads the samples present when the header claims more than the file holds', async () => {
    // What a writer stopped before patching its header leaves behind.
    const levels = await measure('unpatched.wav', pcmWav(sine(440, 1.5, 0.5), { declaredDataBytes: 0xffffffff }));
    expect(levels.durationSeconds).toBe(1.5);
  });

  it('rejects a file that is not 16-bit PCM WAV', async () => {
    await expect(measure('text.wav', Buffer.from('not a wav file at all'))).rejects.toThrow(/RIFF/);
  });
});
