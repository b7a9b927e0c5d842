import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/cli/CliCommand.js';
import { diarizeCommand } from '../../../src/cli/commands/diarizeCommand.js';
import { cleanAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../../src/pipeline/diarization/diarizeAudio.js';
import { formatRttm } from '../../../src/pipeline/diarization/scoring/rttm.js';
import { createTestStageContext } from '../testStageContext.js';
import { segmentationModelPath, sharedAudio, writeStereoCall } from './stereoCall.js';
import { captureCommandOutput } from '../../helpers/commandOutput.js';
import { pcmWav, readPcmWav } from '../../helpers/pcmWav.js';

// `callscope diarize` (src/cli/commands/diarizeCommand.ts), with the real segmentation model and ffmpeg.

const { printed, reported } = captureCommandOutput();
beforeEach(() => {
  vi.stubEnv('SEGMENTATION_MODEL', segmentationModelPath);
  vi.stubEnv('EMBEDDING_MODEL', 'models/not-installed.onnx');
});
afterEach(() => { vi.unstubAllEnvs(); });

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'diarize-command-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

const rttmLine = /^SPEAKER sample 1 \d+\.\d{3} \d+\.\d{3} <NA> <NA> SPEAKER_0[01] <NA> <NA>$/;

describe('callscope diarize', () => {
  it('prints RTTM for a recording, named after its file, with --speakers as a hint', async () => {
    expect(await diarizeCommand.run([sharedAudio('pyannote-sample/sample.wav'), '--speakers', '2'])).toBe(0);
    const lines = printed.join('\n').split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatch(rttmLine);
    expect(reported.join('\n')).toMatch(/2 speaker\(s\).*window-linking/);
  });

  it('takes --min-speakers and --max-speakers as hints', async () => {
    expect(await diarizeCommand.run([sharedAudio('pyannote-sample/sample.wav'), '--max-speakers', '1'])).toBe(0);
    expect(reported.join('\n')).toMatch(/1 speaker\(s\)/);
  });

  it('refuses a bad speaker count and a missing file argument as usage errors', async () => {
    await expect(diarizeCommand.run([sharedAudio('jfk/jfk.wav'), '--speakers', '0'])).rejects.toBeInstanceOf(UsageError);
    await expect(diarizeCommand.run([sharedAudio('jfk/jfk.wav'), '--max-speakers', 'two'])).rejects.toBeInstanceOf(UsageError);
    await expect(diarizeCommand.run([sharedAudio('jfk/jfk.wav'), '--min-speakers', '3', '--max-speakers', '2'])).rejects.toBeInstanceOf(UsageError);
    await expect(diarizeCommand.run([sharedAudio('jfk/jfk.wav'), '--speakers', '2', '--max-speakers', '2'])).rejects.toBeInstanceOf(UsageError);
    await expect(diarizeCommand.run([])).rejects.toBeInstanceOf(UsageError);
  });

  it('exits 1 with the reason when the segmentation model is not installed', async () => {
    vi.stubEnv('SEGMENTATION_MODEL', 'models/absent.onnx');
    expect(await diarizeCommand.run([sharedAudio('jfk/jfk.wav')])).toBe(1);
    expect(reported.join('\n')).toMatch(/absent\.onnx.*SEGMENTATION_MODEL/);
    expect(printed).toEqual([]);
  });

  it('prints what clean-up then diarization, one after the other, give, though it segments a mono call while ffmpeg still writes it', async () => {
    // A minute (the sample twice): ffmpeg's loudness normalisation takes about a second of it,
    // so the segmentation, which starts with ffmpeg, reads the file as it grows.
    const sample = (await readPcmWav(sharedAudio('pyannote-sample/sample.wav'))).samples;
    const looped = new Int16Array(sample.length * 2);
    for (let copy = 0; copy < 2; copy++) looped.set(sample, copy * sample.length);
    const callPath = join(folder, 'looped.wav');
    await writeFile(callPath, pcmWav(looped));

    const cleaned = await cleanAudio({ sourcePath: callPath, outputDir: await mkdtemp(join(folder, 'clean-')), maxDurationSeconds: 7200 }, createTestStageContext());
    const oneAfterTheOther = await diarizeAudio(cleaned, { segmentationModel: segmentationModelPath, embeddingModel: 'models/not-installed.onnx' }, createTestStageContext());
    expect(oneAfterTheOther.turns.length).toBeGreaterThan(10);

    expect(await diarizeCommand.run([callPath])).toBe(0);
    expect(printed.join('\n')).toBe(formatRttm(oneAfterTheOther.turns, 'looped'));
  }, 120_000); // two diarizations of a minute, one thread each: ~6 s here, several times that on a busy 2-core CI runner

  it('exits 1 with clean-up\'s reason for a silent recording, its diarization stopped, and prints nothing', async () => {
    const silentPath = join(folder, 'silent.wav');
    await writeFile(silentPath, pcmWav(new Int16Array(16000 * 20)));
    expect(await diarizeCommand.run([silentPath])).toBe(1);
    expect(reported.join('\n')).toMatch(/only silence/);
    expect(printed).toEqual([]);
  });

  it('diarizes a stereo call with a party per channel by channel (no overlap: the levels decide)', async () => {
    const call = await writeStereoCall(join(folder, 'stereo.wav'), { rightStartSeconds: 8.3 });
    expect(await diarizeCommand.run([call.path])).toBe(0);
    expect(reported.join('\n')).toMatch(/2 speaker\(s\).*by channel/);
    expect(printed.join('\n')).toMatch(/^SPEAKER stereo 1 /);
  });
});
