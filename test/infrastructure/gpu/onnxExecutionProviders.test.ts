import { afterEach, expect, test } from 'vitest';
import { createSessionWithFallback, onnxExecutionProviders } from '../../../src/infrastructure/gpu/onnxExecutionProviders.js';
import { whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';

const original = process.env.GPU;
afterEach(() => {
  if (original === undefined) delete process.env.GPU;
  else process.env.GPU = original;
});

test('without onnxruntime\'s CUDA provider library (a plain install), and with GPU=off, sessions run on the CPU', () => {
  expect(onnxExecutionProviders()).toEqual(['cpu']);
  process.env.GPU = 'off';
  expect(onnxExecutionProviders()).toEqual(['cpu']);
});

test('a session whose GPU providers fail to start is created again on the CPU alone', async () => {
  const tried: string[][] = [];
  const create = async (providers: string[]) => {
    tried.push(providers);
    if (providers.includes('cuda')) throw new Error('CUDA driver not found');
    return 'session';
  };
  // Only exercised when the CUDA provider is installed; the fallback itself is plain logic.
  expect(await createSessionWithFallback(create)).toBe('session');
  expect(tried.at(-1)).toEqual(['cpu']);
});

test('GPU=off keeps a CUDA-built whisper-cli on the CPU with --no-gpu', () => {
  const base = { modelPath: 'm.bin', audioPath: 'a.wav', outputBase: 'out', threads: 2, language: 'en' };
  expect(whisperCliArguments({ ...base, useGpu: false })).toContain('--no-gpu');
  expect(whisperCliArguments(base)).not.toContain('--no-gpu');
});
