import { copyFile, mkdir, mkdtemp, open, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifiedFilesPath } from '../../src/infrastructure/models/ModelDigestCache.js';
import { ProcessingEventRepository } from '../../src/processing/ProcessingEventRepository.js';
import { startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { postUpload } from '../helpers/callInspection.js';
import { pcmWav, readPcmWav } from '../helpers/pcmWav.js';
import { waitFor } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';

/*
 * Fault: a model file damaged on disk. The call fails (never hangs, never completes) with a
 * reason that names the model and says what to do, without a path or a stack, and readiness
 * reports the model. Neither the digest cache (<DATA_DIR>/models-verified.json) nor anything
 * else hides the damage once the file was verified, or hides the repair once it is put right.
 *
 * The damaged files are copies in a scratch folder (../shared/models is never written):
 * - under their published names, as `callscope models fetch` / `import` install them, the
 *   integrity check (SHA-256 against the manifest) refuses them before anything loads them;
 * - under a name of one's own, which the check cannot judge, the stage's loader finds out.
 * A whisper model is damaged only in its header: bytes overwritten in the middle of even the
 * structure-only model make whisper.cpp allocate without bound, which the OOM killer ends.
 */

const shared = resolve(import.meta.dirname, '../../../shared');
const sharedModels = {
  segmentation: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
  whisper: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
  llm: join(shared, 'models/llama-2-tiny-random.gguf'),
};

/** The first 10 s of the two-speaker sample call: real speech, short enough to process quickly. */
async function sampleCall(): Promise<Buffer> {
  const { samples } = await readPcmWav(join(shared, 'audio/pyannote-sample/sample.wav'));
  return pcmWav(samples.slice(0, 10 * 16000));
}

/** Overwrites `length` bytes at `offset` with 0xAB, in place. */
async function overwrite(path: string, offset: number, length: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.write(Buffer.alloc(length, 0xab), 0, length, offset);
  } finally {
    await handle.close();
  }
}

async function truncateToHalf(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(Math.floor((await handle.stat()).size / 2));
  } finally {
    await handle.close();
  }
}

interface CallView { status: string; errorReason: string | null }

interface Ended extends CallView {
  callId: string;
  /** `stage:outcome` of each stage run, in order. */
  stages: string[];
}

/** A service with its processing side, configured with `env()` (model paths, read when it starts). */
function service(env: () => Record<string, string>) {
  const state = {} as { testApp: TestApp; processing: Processing };
  beforeAll(async () => {
    state.testApp = await startTestApp({ WORKER_THREADS: '1', WORKER_CONCURRENCY: '1', ...env() });
    state.processing = await startProcessing(state.testApp.services, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await state.processing?.stop(0);
    await state.testApp?.close();
  });

  /** Uploads the sample call and waits until processing ends it (a bound, not a timed assertion). */
  async function processCall(): Promise<Ended> {
    const alice = state.testApp.as('alice');
    const response = await postUpload(alice, uploadForm(await sampleCall(), 'call.wav'));
    expect(response.status).toBe(202);
    const { callId } = (await response.json()) as { callId: string };
    const call = await waitFor(`call ${callId} to end`, async () => {
      const view = (await (await alice(`/api/calls/${callId}`)).json()) as CallView;
      return (view.status === 'FAILED' || view.status === 'COMPLETED') && view;
    }, 90_000);
    const events = await new ProcessingEventRepository(state.testApp.services.database.sql).forCall(callId);
    return { callId, status: call.status, errorReason: call.errorReason, stages: events.map((event) => `${event.stage}:${event.outcome}`) };
  }

  /** The readiness answer, once the models check has a verdict for every slot (no `checking`). */
  async function readiness(): Promise<{ httpStatus: number; models: { status: string; detail: Record<string, unknown> } }> {
    return waitFor('a models verdict', async () => {
      const response = await fetch(`${state.testApp.baseUrl}/actuator/health/readiness`);
      const body = (await response.json()) as { checks: { models: { status: string; detail: Record<string, unknown> } } };
      return !Object.values(body.checks.models.detail).includes('checking') && { httpStatus: response.status, models: body.checks.models };
    });
  }

  return { state, processCall, readiness };
}

/** What no errorReason may hold: the box's folders, or a stack trace. */
function expectNoPathOrStack(reason: string | null, ...folders: string[]): void {
  for (const folder of folders) expect(reason).not.toContain(folder);
  expect(reason).not.toMatch(/(^|[\s(])\/[\w.-]+\//);
  expect(reason).not.toMatch(/\n\s*at /);
}

let scratch: string;
beforeAll(async () => { scratch = await mkdtemp(join(tmpdir(), 'callscope-corrupted-model-')); });
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the segmentation model, installed under its published name, damaged after it was verified', () => {
  const model = () => join(scratch, 'published', 'pyannote-segmentation-3.0.fp16.onnx');
  const whisper = () => join(scratch, 'published', 'whisper-test-stub-tiny.en.bin');
  // Fixed timestamps, so the damaged copy can be given the very size and mtime that were verified.
  const timestamp = new Date('2026-01-02T03:04:05Z');
  beforeAll(async () => {
    await mkdir(join(scratch, 'published'));
    await copyFile(sharedModels.segmentation, model());
    await copyFile(sharedModels.whisper, whisper());
    await utimes(model(), timestamp, timestamp);
  });
  const { state, processCall, readiness } = service(() => ({ SEGMENTATION_MODEL: model(), WHISPER_MODEL: whisper() }));

  test('verified and working; then damaged in place with its size and mtime kept: the call fails at diarization, readiness is DOWN; a good copy put back: both recover', async () => {
    // 1. Intact: verified (its digest is cached in models-verified.json), and a call gets through diarization.
    expect((await readiness()).models).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'ok', WHISPER_MODEL: 'ok' } });
    const cached = JSON.parse(await readFile(verifiedFilesPath(state.testApp.dataDir), 'utf8')) as { files: Record<string, { sha256: string }> };
    expect(cached.files[model()]?.sha256).toBe('f3dba0c91270b923e9ce66e4cef123820cb73c9b07e47e03a3d7d4267e4fbec4');
    const before = await processCall();
    expect(before.stages).toContain('diarization:OK');
    // The structure-only whisper model hears no words; the call still completes.
    expect(before).toMatchObject({ status: 'COMPLETED', errorReason: null });

    // 2. Damaged in place: 4 KiB in the middle overwritten (onnxruntime would still load it, with
    //    wrong weights), its old mtime put back, as `cp -p` or `rsync -a` of a bad copy would leave it.
    await overwrite(model(), 1_500_000, 4096);
    await utimes(model(), timestamp, timestamp);

    const damaged = await processCall();
    expect(damaged.status).toBe('FAILED');
    expect(damaged.stages).toEqual(['cleanup:OK', 'diarization:FAILED']);
    expect(damaged.errorReason).toMatch(
      /^The speaker segmentation model at SEGMENTATION_MODEL \(now pyannote-segmentation-3\.0\.fp16\.onnx\) failed its integrity check: it is not the published pyannote-segmentation-3\.0-fp16 \(damaged or truncated\?\); fetch or import it again \(callscope models fetch --slot segmentation, or callscope models import <folder>\)$/,
    );
    expectNoPathOrStack(damaged.errorReason, scratch, state.testApp.dataDir);

    const down = await readiness();
    expect(down.httpStatus).toBe(503);
    expect(down.models).toMatchObject({
      status: 'DOWN',
      detail: { SEGMENTATION_MODEL: 'checksum_mismatch', WHISPER_MODEL: 'ok', problems: [expect.stringMatching(/^SEGMENTATION_MODEL \(pyannote-segmentation-3\.0\.fp16\.onnx\): damaged or truncated/)] },
    });

    // 3. Also cut to half its size: still refused, with the same reason.
    await truncateToHalf(model());
    const truncated = await processCall();
    expect(truncated).toMatchObject({ status: 'FAILED', errorReason: damaged.errorReason, stages: ['cleanup:OK', 'diarization:FAILED'] });
    expect((await readiness()).models).toMatchObject({ status: 'DOWN', detail: { SEGMENTATION_MODEL: 'checksum_mismatch' } });

    // 4. A good copy put back: nothing remembered hides the repair.
    await copyFile(sharedModels.segmentation, model());
    expect((await readiness()).models).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'ok' } });
    const repaired = await processCall();
    expect(repaired.stages).toContain('diarization:OK');
    expect(repaired).toMatchObject({ status: 'COMPLETED', errorReason: null });
  }, 240_000);
});

describe('the segmentation model, an own file (a name no manifest entry has), truncated', () => {
  const model = () => join(scratch, 'my-segmentation.onnx');
  beforeAll(async () => {
    await copyFile(sharedModels.segmentation, model());
    await truncateToHalf(model());
  });
  const { state, processCall, readiness } = service(() => ({ SEGMENTATION_MODEL: model(), WHISPER_MODEL: sharedModels.whisper }));

  test('the call fails at diarization saying the model could not be loaded; readiness then reports it (load_failed) until a good file replaces it', async () => {
    // Nothing to check it against: it is taken for an own model until a call loads it.
    expect((await readiness()).models).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'not_in_manifest' } });

    const failed = await processCall();
    expect(failed.status).toBe('FAILED');
    expect(failed.stages).toEqual(['cleanup:OK', 'diarization:FAILED']);
    expect(failed.errorReason).toMatch(
      /^The speaker segmentation model at SEGMENTATION_MODEL \(now my-segmentation\.onnx\) could not be loaded: it is damaged or not an ONNX model; replace it with the pyannote segmentation-3\.0 ONNX file \(callscope models fetch --slot segmentation, or callscope models import <folder>\)$/,
    );
    expectNoPathOrStack(failed.errorReason, scratch, state.testApp.dataDir);

    const down = await readiness();
    expect(down.httpStatus).toBe(503);
    expect(down.models).toMatchObject({
      status: 'DOWN',
      detail: { SEGMENTATION_MODEL: 'load_failed', problems: ['SEGMENTATION_MODEL (my-segmentation.onnx): a call could not load it (damaged, or not a speaker segmentation model?); replace it'] },
    });
    expectNoPathOrStack(JSON.stringify(down.models), scratch);

    // A good copy is recognised by its digest, whatever its name.
    await copyFile(sharedModels.segmentation, model());
    expect((await readiness()).models).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'ok' } });
    const repaired = await processCall();
    expect(repaired.stages).toContain('diarization:OK');
    expect(repaired.status).toBe('COMPLETED');
  }, 180_000);
});

describe('the speech recognition model, damaged', () => {
  describe('under its published name, bytes overwritten in the middle', () => {
    const model = () => join(scratch, 'whisper-test-stub-tiny.en.bin');
    beforeAll(async () => {
      await copyFile(sharedModels.whisper, model());
      await overwrite(model(), 300_000, 4096);
    });
    const { state, processCall, readiness } = service(() => ({ SEGMENTATION_MODEL: sharedModels.segmentation, WHISPER_MODEL: model() }));

    test('the call fails at transcription (whisper never runs on it), naming the speech recognition model; readiness is DOWN', async () => {
      const failed = await processCall();
      expect(failed.status).toBe('FAILED');
      expect(failed.stages).toEqual(['cleanup:OK', 'diarization:OK', 'transcription:FAILED']);
      expect(failed.errorReason).toMatch(
        /^The speech recognition model at WHISPER_MODEL \(now whisper-test-stub-tiny\.en\.bin\) failed its integrity check: .*\(damaged or truncated\?\); fetch or import it again \(callscope models fetch --slot whisper/,
      );
      expectNoPathOrStack(failed.errorReason, scratch, state.testApp.dataDir);
      expect(await readiness()).toMatchObject({ httpStatus: 503, models: { status: 'DOWN', detail: { WHISPER_MODEL: 'checksum_mismatch', SEGMENTATION_MODEL: 'ok' } } });
    }, 120_000);
  });

  describe('an own file, its header overwritten', () => {
    const model = () => join(scratch, 'my-whisper.bin');
    beforeAll(async () => {
      await copyFile(sharedModels.whisper, model());
      await overwrite(model(), 0, 64);
    });
    const { state, processCall, readiness } = service(() => ({ SEGMENTATION_MODEL: sharedModels.segmentation, WHISPER_MODEL: model() }));

    test('the call fails at transcription saying the model could not be loaded; readiness reports it (load_failed)', async () => {
      const failed = await processCall();
      expect(failed.status).toBe('FAILED');
      expect(failed.stages).toEqual(['cleanup:OK', 'diarization:OK', 'transcription:FAILED']);
      expect(failed.errorReason).toBe('The speech recognition model at WHISPER_MODEL (now my-whisper.bin) could not be loaded: it is damaged or not a whisper.cpp ggml model; replace it');
      expectNoPathOrStack(failed.errorReason, scratch, state.testApp.dataDir);
      expect(await readiness()).toMatchObject({
        httpStatus: 503,
        models: { status: 'DOWN', detail: { WHISPER_MODEL: 'load_failed', problems: [expect.stringMatching(/^WHISPER_MODEL \(my-whisper\.bin\): a call could not load it/)] } },
      });
    }, 120_000);
  });
});

describe('the language model, under its published name, truncated, with ANALYSER=llm', () => {
  const model = () => join(scratch, 'llama-2-tiny-random.gguf');
  beforeAll(async () => {
    await copyFile(sharedModels.llm, model());
    await truncateToHalf(model());
  });
  const { state, processCall, readiness } = service(() => ({ SEGMENTATION_MODEL: sharedModels.segmentation, WHISPER_MODEL: sharedModels.whisper, ANALYSER: 'llm', LLM_MODEL: model() }));

  // As docs/models.md says: a model that fails its check is refused, the call fails with a reason
  // naming it (no silent fall-back to the built-in analyser); readiness reports it DOWN.
  test('the call fails at analysis, naming the language model; readiness is DOWN', async () => {
    const failed = await processCall();
    expect(failed.status).toBe('FAILED');
    expect(failed.stages).toContain('analysis:FAILED');
    expect(failed.stages).toContain('transcription:OK');
    expect(failed.errorReason).toMatch(
      /^The language model for call analysis at LLM_MODEL \(now llama-2-tiny-random\.gguf\) failed its integrity check: .*fetch or import it again \(callscope models fetch --slot llm/,
    );
    expectNoPathOrStack(failed.errorReason, scratch, state.testApp.dataDir);
    expect(await readiness()).toMatchObject({ httpStatus: 503, models: { status: 'DOWN', detail: { LLM_MODEL: 'checksum_mismatch' } } });
  }, 120_000);
});
