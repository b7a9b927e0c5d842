import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { modelsCheck, type CheckResult } from '../../../src/infrastructure/health/readinessChecks.js';
import { ModelDigestCache } from '../../../src/infrastructure/models/ModelDigestCache.js';
import { modelFileVersion, recordIfModelUnusable } from '../../../src/infrastructure/models/modelLoadFailures.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { modelFolder, sharedFiles, truncatedCopy } from './modelFixtures.js';

// Readiness's models check over the development model files in ../shared/models.

let folder: Awaited<ReturnType<typeof modelFolder>>;
beforeEach(async () => { folder = await modelFolder(); });
afterEach(async () => { await folder.remove(); });

function check(env: Record<string, string>, waitMs?: number): Promise<CheckResult> {
  const config = loadConfig({ DATA_DIR: folder.config.DATA_DIR, ...env });
  return Promise.resolve(modelsCheck(config, { digests: new ModelDigestCache(), lockPath: folder.lockPath, ...(waitMs === undefined ? {} : { waitMs }) })());
}

const intact = () => ({ SEGMENTATION_MODEL: sharedFiles.segmentation, WHISPER_MODEL: sharedFiles.whisper, VAD_MODEL: sharedFiles.vad });

test('UP with verified required models; optional ones missing are reported, not DOWN', async () => {
  const result = await check({ ...intact(), EMBEDDING_MODEL: join(folder.models, 'none.onnx') });
  expect(result).toEqual({
    status: 'UP',
    detail: { SEGMENTATION_MODEL: 'ok', WHISPER_MODEL: 'ok', EMBEDDING_MODEL: 'missing', VAD_MODEL: 'ok', LLM_MODEL: expect.any(String) },
  });
});

test('DOWN, with the reason, when a required model is damaged (a truncated copy)', async () => {
  const damaged = await truncatedCopy(sharedFiles.segmentation, join(folder.models, 'pyannote-segmentation-3.0.fp16.onnx'));
  const result = await check({ ...intact(), SEGMENTATION_MODEL: damaged });
  expect(result.status).toBe('DOWN');
  expect(result.detail).toMatchObject({ SEGMENTATION_MODEL: 'checksum_mismatch', WHISPER_MODEL: 'ok', problems: [expect.stringMatching(/^SEGMENTATION_MODEL .*damaged or truncated/)] });
});

test('DOWN when a required model is missing, or when an optional one is damaged (every call would refuse it)', async () => {
  expect(await check({ ...intact(), WHISPER_MODEL: join(folder.models, 'missing.bin') })).toMatchObject({ status: 'DOWN', detail: { WHISPER_MODEL: 'missing' } });
  const damagedVad = await truncatedCopy(sharedFiles.vad, join(folder.models, 'silero-vad-v6.2.0-ggml.bin'));
  expect(await check({ ...intact(), VAD_MODEL: damagedVad })).toMatchObject({ status: 'DOWN', detail: { VAD_MODEL: 'checksum_mismatch' } });
});

test('never waits for a long hash: answers from presence ("checking") and has the verdict once the background hash is done', async () => {
  const ownModel = join(folder.models, 'own-whisper.bin');
  await writeFile(ownModel, Buffer.alloc(32 * 1024 * 1024, 7));
  await copyFile(sharedFiles.segmentation, folder.config.SEGMENTATION_MODEL);
  const config = loadConfig({ DATA_DIR: folder.config.DATA_DIR, SEGMENTATION_MODEL: folder.config.SEGMENTATION_MODEL, WHISPER_MODEL: ownModel });
  const probe = modelsCheck(config, { digests: new ModelDigestCache(), lockPath: folder.lockPath, waitMs: 0 });

  const first = await probe();
  expect(first).toMatchObject({ status: 'UP', detail: { WHISPER_MODEL: 'checking' } });
  let later = first;
  for (let attempt = 0; attempt < 100 && later.detail?.WHISPER_MODEL === 'checking'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    later = await probe();
  }
  expect(later).toMatchObject({ status: 'UP', detail: { WHISPER_MODEL: 'not_in_manifest', SEGMENTATION_MODEL: 'ok' } });
});

describe('a model a stage could not load', () => {
  /** What diarization records when onnxruntime cannot load the file (see modelLoadFailures.test.ts). */
  const recordUnloadable = async (path: string) => {
    const unusable = new StageFailure('unavailable', 'could not be loaded');
    recordIfModelUnusable(unusable, unusable, path, await modelFileVersion(path));
  };

  test('is DOWN as load_failed, naming the setting and the file (no folder), until the file changes', async () => {
    // An own model: its name claims no manifest entry, so the integrity check cannot judge it.
    const own = await truncatedCopy(sharedFiles.segmentation, join(folder.models, 'my-segmentation.onnx'));
    expect(await check({ ...intact(), SEGMENTATION_MODEL: own })).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'not_in_manifest' } });

    await recordUnloadable(own);
    const down = await check({ ...intact(), SEGMENTATION_MODEL: own });
    expect(down).toMatchObject({
      status: 'DOWN',
      detail: { SEGMENTATION_MODEL: 'load_failed', WHISPER_MODEL: 'ok', problems: ['SEGMENTATION_MODEL (my-segmentation.onnx): a call could not load it (damaged, or not a speaker segmentation model?); replace it'] },
    });
    expect(JSON.stringify(down)).not.toContain(folder.root);
    // Also while the digests are still being computed.
    expect(await check({ ...intact(), SEGMENTATION_MODEL: own }, 0)).toMatchObject({ status: 'DOWN', detail: { SEGMENTATION_MODEL: 'load_failed' } });

    await copyFile(sharedFiles.segmentation, own);
    expect(await check({ ...intact(), SEGMENTATION_MODEL: own })).toMatchObject({ status: 'UP', detail: { SEGMENTATION_MODEL: 'ok' } });
  });

  test('an optional model no call can load is DOWN too (every call using it fails); missing or damaged files keep their own verdict', async () => {
    const llm = join(folder.models, 'my-llm.gguf');
    await writeFile(llm, 'not a GGUF file');
    await recordUnloadable(llm);
    expect(await check({ ...intact(), LLM_MODEL: llm })).toMatchObject({ status: 'DOWN', detail: { LLM_MODEL: 'load_failed' } });

    const damaged = await truncatedCopy(sharedFiles.segmentation, join(folder.models, 'pyannote-segmentation-3.0.fp16.onnx'));
    await recordUnloadable(damaged);
    expect(await check({ ...intact(), SEGMENTATION_MODEL: damaged })).toMatchObject({ detail: { SEGMENTATION_MODEL: 'checksum_mismatch' } });
  });
});
