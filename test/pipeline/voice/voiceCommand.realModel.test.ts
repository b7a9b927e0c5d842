import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/cli/CliCommand.js';
import { voiceCommand } from '../../../src/cli/commands/voiceCommand.js';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';
import { captureCommandOutput } from '../../helpers/commandOutput.js';

// `callscope voice compare` (src/cli/commands/voiceCommand.ts) with the real GE2E encoder
// (`npm run models:eval -- --only ge2e-resemblyzer`, which the test command runs) and ffmpeg.

const encoderPath = requireEvalModelFile('ge2e-resemblyzer', 'voiceEncoderOnnx');
const reading = (file: string) => resolve(packageRoot, '../shared/audio/librispeech/test-other', file);
const folder = await mkdtemp(join(tmpdir(), 'voice-command-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

const { printed, reported } = captureCommandOutput();
beforeEach(() => { vi.stubEnv('EMBEDDING_MODEL', encoderPath); });
afterEach(() => { vi.unstubAllEnvs(); });

describe('callscope voice compare', () => {
  it('prints one JSON object: two readings of one reader are one speaker', async () => {
    expect(await voiceCommand.run(['compare', reading('1688/1688-142285-0000.flac'), reading('1688/1688-142285-0001.flac')])).toBe(0);
    expect(printed).toHaveLength(1);
    const comparison = JSON.parse(printed[0]!) as Record<string, unknown>;
    expect(Object.keys(comparison).sort()).toEqual(['model', 'sameSpeaker', 'similarity', 'threshold']);
    expect(comparison).toMatchObject({ threshold: 0.75, sameSpeaker: true, model: 'ge2e-resemblyzer.onnx (ge2e)' });
    expect(comparison.similarity).toBeGreaterThan(0.85);
  });

  it('two readers are not, and the threshold is the configured voice-match threshold', async () => {
    vi.stubEnv('SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD', '0.7');
    expect(await voiceCommand.run(['compare', reading('1688/1688-142285-0000.flac'), reading('1998/1998-15444-0000.flac')])).toBe(0);
    const comparison = JSON.parse(printed[0]!) as { similarity: number; threshold: number; sameSpeaker: boolean };
    expect(comparison).toMatchObject({ threshold: 0.7, sameSpeaker: false });
    expect(comparison.similarity).toBeLessThan(0.7);
  });

  it('exits 1 with the reason for a recording with too little speech, and when no model is installed', async () => {
    const tone = join(folder, 'tone.wav');
    await writeFile(tone, pcmWav(sine(440, 1, 3000)));
    expect(await voiceCommand.run(['compare', tone, reading('1688/1688-142285-0000.flac')])).toBe(1);
    expect(reported.join('\n')).toMatch(/tone\.wav holds less than 2 s of speech/);
    expect(printed).toEqual([]);
    vi.stubEnv('EMBEDDING_MODEL', join(folder, 'not-installed.onnx'));
    expect(await voiceCommand.run(['compare', tone, tone])).toBe(1);
    expect(reported.join('\n')).toMatch(/No speaker-embedding model is installed/);
  });

  it('refuses anything but `compare` and two files as a usage error', async () => {
    await expect(voiceCommand.run(['compare', reading('1688/1688-142285-0000.flac')])).rejects.toBeInstanceOf(UsageError);
    await expect(voiceCommand.run(['match', 'a.wav', 'b.wav'])).rejects.toBeInstanceOf(UsageError);
  });
});
