import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { cleanAudio, type CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { measureLevels } from '../../../src/pipeline/cleanup/measureLevels.js';
import { createTestStageContext } from '../testStageContext.js';
import { generateAudio, probeStream } from './generateAudio.js';
import { pcmWav, readPcmWav, sine, toneAmplitude } from '../../helpers/pcmWav.js';

// Needs the real ffmpeg (system or bundled); recordings are generated here or read from ../shared/audio.

const sharedAudio = (path: string) => resolve(packageRoot, '../shared/audio', path);

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'clean-audio-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

async function clean(sourcePath: string, maxDurationSeconds = 7200): Promise<CleanedAudio & { progress: number[] }> {
  const context = createTestStageContext();
  const outputDir = await mkdtemp(join(folder, 'out-'));
  const cleaned = await cleanAudio({ sourcePath, outputDir, maxDurationSeconds }, context);
  return { ...cleaned, progress: context.progress };
}

async function expectCleanedPcm(path: string, channels: number, seconds: number) {
  const stream = await probeStream(path);
  expect(stream).toMatchObject({ codecName: 'pcm_s16le', sampleRate: 16000, channels });
  expect(stream.durationSeconds).toBeGreaterThan(seconds - 0.1);
  expect(stream.durationSeconds).toBeLessThan(seconds + 0.1);
}

describe('cleanAudio with real ffmpeg', () => {
  const tone = (rate: number) => ['-f', 'lavfi', '-i', `sine=f=440:d=3:r=${rate}`];
  it.each([
    ['m4a (AAC)', 'tone.m4a', [...tone(44100), '-c:a', 'aac', '-b:a', '64k']],
    ['mp3', 'tone.mp3', [...tone(44100), '-c:a', 'libmp3lame', '-b:a', '64k']],
    ['wav', 'tone.wav', [...tone(44100), '-c:a', 'pcm_s16le']],
    ['aac (ADTS)', 'tone.aac', [...tone(44100), '-c:a', 'aac', '-b:a', '64k', '-f', 'adts']],
    ['ogg (Vorbis)', 'tone-vorbis.ogg', [...tone(44100), '-c:a', 'libvorbis']],
    ['ogg (Opus)', 'tone-opus.ogg', [...tone(48000), '-c:a', 'libopus', '-b:a', '32k']],
  ])('decodes %s to 16 kHz mono s16le of the right length', async (_format, name, args) => {
    const cleaned = await clean(await generateAudio(join(folder, name), args));

    await expectCleanedPcm(cleaned.monoPath, 1, 3);
    expect(cleaned.durationSeconds).toBeGreaterThan(2.9);
    expect(cleaned.durationSeconds).toBeLessThan(3.1);
    expect(cleaned).toMatchObject({ sourceChannels: 1, stereoPath: undefined });
    expect(cleaned.levels.channelActiveFractions).toEqual([cleaned.levels.activeFraction]);
    expect(cleaned.progress.at(-1)).toBe(1);
  });

  it('keeps the two channels of a stereo recording apart, beside the mono mix', async () => {
    const source = await generateAudio(join(folder, 'two-tones.m4a'), [
      '-f', 'lavfi', '-i', 'sine=f=440:d=3:r=44100', '-f', 'lavfi', '-i', 'sine=f=1000:d=3:r=44100',
      '-filter_complex', '[0][1]amerge=inputs=2', '-c:a', 'aac', '-b:a', '96k',
    ]);
    const cleaned = await clean(source);

    expect(cleaned.sourceChannels).toBe(2);
    expect(cleaned.stereoPath).toBeDefined();
    await expectCleanedPcm(cleaned.monoPath, 1, 3);
    await expectCleanedPcm(cleaned.stereoPath!, 2, 3);
    const { samples } = await readPcmWav(cleaned.stereoPath!);
    const left = samples.filter((_, index) => index % 2 === 0);
    const right = samples.filter((_, index) => index % 2 === 1);
    expect(toneAmplitude(left, 16000, 440)).toBeGreaterThan(20 * toneAmplitude(left, 16000, 1000));
    expect(toneAmplitude(right, 16000, 1000)).toBeGreaterThan(20 * toneAmplitude(right, 16000, 440));
    expect(cleaned.levels.channels).toBe(2);
    expect(cleaned.levels.channelActiveFractions).toHaveLength(2);
    for (const fraction of cleaned.levels.channelActiveFractions) expect(fraction).toBeGreaterThan(0.95);
  });

  it('tells whileDecodingMono as ffmpeg starts on a one-channel source (written settles once it has exited, the file whole), and never for two channels', async () => {
    const mono = await generateAudio(join(folder, 'told-mono.wav'), [...tone(16000), '-c:a', 'pcm_s16le']);
    const outputDir = await mkdtemp(join(folder, 'out-'));
    const told: { monoPath: string; expectedSeconds?: number; writtenSettled: boolean }[] = [];
    const cleaned = await cleanAudio({
      sourcePath: mono, outputDir, maxDurationSeconds: 7200,
      whileDecodingMono: (decoding) => {
        const entry = { monoPath: decoding.monoPath, ...(decoding.expectedSeconds !== undefined ? { expectedSeconds: decoding.expectedSeconds } : {}), writtenSettled: false };
        void decoding.written.then(() => { entry.writtenSettled = true; });
        told.push(entry);
      },
    }, createTestStageContext());
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ monoPath: cleaned.monoPath, expectedSeconds: expect.closeTo(3, 1) });
    // Settled before the stage measured the file and returned.
    expect(told[0]!.writtenSettled).toBe(true);
    expect((await measureLevels({ path: cleaned.monoPath })).durationSeconds).toBeCloseTo(cleaned.durationSeconds, 3);

    const stereo = await generateAudio(join(folder, 'told-stereo.wav'), [...tone(16000), '-ac', '2', '-c:a', 'pcm_s16le']);
    let toldForStereo = 0;
    await cleanAudio({ sourcePath: stereo, outputDir: await mkdtemp(join(folder, 'out-')), maxDurationSeconds: 7200, whileDecodingMono: () => { toldForStereo += 1; } }, createTestStageContext());
    expect(toldForStereo).toBe(0);
  });

  it('shows a silent channel of a stereo recording as inactive', async () => {
    const source = await generateAudio(join(folder, 'one-side.wav'), [
      '-f', 'lavfi', '-i', 'sine=f=440:d=3:r=16000', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono',
      '-filter_complex', '[0][1]amerge=inputs=2,atrim=0:3', '-c:a', 'pcm_s16le',
    ]);
    const cleaned = await clean(source);

    const [left, right] = cleaned.levels.channelActiveFractions;
    expect(left).toBeGreaterThan(0.95);
    expect(right).toBe(0);
    expect(cleaned.levels.activeFraction).toBeGreaterThan(0.95);
  });

  it('high-passes the audio: a 30 Hz hum loses most of its energy, a 1 kHz tone keeps it', async () => {
    const hum = sine(30, 3, 0.25);
    const voiceBand = sine(1000, 3, 0.25);
    const source = join(folder, 'hum.wav');
    await writeFile(source, pcmWav(hum.map((sample, index) => sample + voiceBand[index]!)));
    const { samples } = await readPcmWav((await clean(source)).monoPath);

    // Equal in the source; a 2-pole high-pass at 80 Hz takes ~17 dB off 30 Hz.
    const ratio = toneAmplitude(samples, 16000, 30) / toneAmplitude(samples, 16000, 1000);
    expect(ratio).toBeLessThan(0.25);
  });

  it('normalises loudness: speech recorded at about -40 dBFS comes out at speech level', async () => {
    const source = await generateAudio(join(folder, 'quiet-speech.wav'), ['-i', sharedAudio('jfk/jfk.wav'), '-af', 'volume=-23dB', '-c:a', 'pcm_s16le']);
    const before = await measureLevels({ path: source });
    const cleaned = await clean(source);

    expect(before.rmsDbfs).toBeLessThan(-38);
    expect(cleaned.levels.rmsDbfs).toBeGreaterThan(before.rmsDbfs + 10);
    expect(cleaned.levels.peakDbfs).toBeLessThan(-1);
  });

  it.each([
    ['jfk/jfk.wav', 11.0],
    ['pyannote-sample/sample.wav', 30.0],
  ])('cleans the real recording %s to its %d s', async (path, seconds) => {
    const cleaned = await clean(sharedAudio(path));

    await expectCleanedPcm(cleaned.monoPath, 1, seconds);
    expect(cleaned.durationSeconds).toBeCloseTo(seconds, 1);
    expect(cleaned.levels.activeFraction).toBeGreaterThan(0.5);
    expect(cleaned.levels.rmsDbfs).toBeGreaterThan(-30);
  });

  it('reports progress that only grows and ends at 1', async () => {
    const source = await generateAudio(join(folder, 'long-tone.mp3'), ['-f', 'lavfi', '-i', 'sine=f=300:d=60:r=16000', '-c:a', 'libmp3lame', '-b:a', '32k']);
    const { progress } = await clean(source);

    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });
});
