import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/cli/CliCommand.js';
import { diarizeCommand } from '../../../src/cli/commands/diarizeCommand.js';
import { segmentationModelPath, sharedAudio } from './stereoCall.js';
import { captureCommandOutput } from '../../helpers/commandOutput.js';

// `callscope diarize` (src/cli/commands/diarizeCommand.ts), with the real segmentation model and ffmpeg.

const { printed, reported } = captureCommandOutput();
beforeEach(() => {
  vi.stubEnv('SEGMENTATION_MODEL', segmentationModelPath);
  vi.stubEnv('EMBEDDING_MODEL', 'models/not-installed.onnx');
});
afterEach(() => { vi.unstubAllEnvs(); });

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
});
