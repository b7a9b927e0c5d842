import { afterEach, expect, test, vi } from 'vitest';
import { createSessionWithFallback, onnxExecutionProviders, type OnnxExecutionProvider } from '../../../src/infrastructure/gpu/onnxExecutionProviders.js';
import { whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';

const original = process.env.GPU;
afterEach(() => {
  if (original === undefined) delete process.env.GPU;
  else process.env.GPU = original;
  vi.restoreAllMocks();
});

test('CUDA is tried first when its provider library is installed, the CPU always last; GPU=off keeps sessions on the CPU', () => {
  delete process.env.GPU;
  expect(onnxExecutionProviders(true)).toEqual(['cuda', 'cpu']);
  expect(onnxExecutionProviders(false)).toEqual(['cpu']);
  // On this machine, whichever image it is: the CPU closes the list.
  expect([['cpu'], ['cuda', 'cpu']]).toContainEqual(onnxExecutionProviders());
  process.env.GPU = 'off';
  expect(onnxExecutionProviders(true)).toEqual(['cpu']);
});

/** A session factory whose `failing` providers cannot start, as CUDA without a driver; it records what it was asked. */
function sessionFactory(failing: readonly OnnxExecutionProvider[]) {
  const tried: OnnxExecutionProvider[][] = [];
  const create = async (providers: OnnxExecutionProvider[]) => {
    tried.push(providers);
    const first = providers[0];
    if (first === undefined || failing.includes(first)) throw new Error(`${first ?? 'no'} provider could not start`);
    return { providers };
  };
  return { tried, create };
}

test('a session whose first provider fails to start is created on the next one, and the fallback is told', async () => {
  const { tried, create } = sessionFactory(['cuda']);
  const fallbacks: unknown[][] = [];
  const session = await createSessionWithFallback(create, { providers: ['cuda', 'cpu'], onFallback: (...told) => fallbacks.push(told) });

  expect(session).toEqual({ providers: ['cpu'] });
  expect(tried).toEqual([['cuda', 'cpu'], ['cpu']]);
  expect(fallbacks).toEqual([['cuda', 'cpu', new Error('cuda provider could not start')]]);
});

test('by default the fallback is logged as a process warning naming both providers and the reason', async () => {
  const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const { create } = sessionFactory(['cuda']);
  await createSessionWithFallback(create, { providers: ['cuda', 'cpu'] });

  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not create a session on cuda \(cuda provider could not start\); creating it on cpu/), 'GpuFallbackWarning');
});

test('a session that starts on its first provider is created once, with no fallback', async () => {
  const { tried, create } = sessionFactory([]);
  const onFallback = vi.fn();
  expect(await createSessionWithFallback(create, { providers: ['cuda', 'cpu'], onFallback })).toEqual({ providers: ['cuda', 'cpu'] });
  expect(tried).toEqual([['cuda', 'cpu']]);
  expect(onFallback).not.toHaveBeenCalled();
});

test('when the last provider fails too, its error is the one thrown (a damaged model fails on every provider)', async () => {
  const { tried, create } = sessionFactory(['cuda', 'cpu']);
  const onFallback = vi.fn();
  await expect(createSessionWithFallback(create, { providers: ['cuda', 'cpu'], onFallback })).rejects.toThrow('cpu provider could not start');
  expect(tried).toEqual([['cuda', 'cpu'], ['cpu']]);
  expect(onFallback).toHaveBeenCalledTimes(1);
});

test('GPU=off keeps a CUDA-built whisper-cli on the CPU with --no-gpu', () => {
  const base = { modelPath: 'm.bin', audioPath: 'a.wav', outputBase: 'out', threads: 2, language: 'en', beamSize: 1 };
  expect(whisperCliArguments({ ...base, useGpu: false })).toContain('--no-gpu');
  expect(whisperCliArguments(base)).not.toContain('--no-gpu');
});
