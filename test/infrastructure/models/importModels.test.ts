import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { readManifestLock } from '../../../src/infrastructure/models/manifestLock.js';
import type { ModelManifest } from '../../../src/infrastructure/models/manifestSchema.js';
import { ModelDigestCache, sha256OfFile } from '../../../src/infrastructure/models/ModelDigestCache.js';
import { importModels, inspectModels, type ModelImportResult } from '../../../src/infrastructure/models/modelInventory.js';
import { ge2eTestWheel } from './conversion/ge2eTestCheckpoint.js';
import { modelFolder, sharedFiles, truncatedCopy } from './modelFixtures.js';

// Uses the development model files in ../shared/models as the contents of a "USB stick".

let folder: Awaited<ReturnType<typeof modelFolder>>;
let stick: string;
let manifest: ModelManifest;
beforeEach(async () => {
  folder = await modelFolder();
  stick = join(folder.root, 'stick');
  await mkdir(join(stick, 'callscope-models'), { recursive: true });
  manifest = await installedModelManifest();
});
afterEach(async () => { await folder.remove(); });

const options = () => ({ lockPath: folder.lockPath, digests: new ModelDigestCache() });
const byFile = (results: ModelImportResult[]) => Object.fromEntries(results.map((result) => [result.fileName, result]));

test('copies each recognised file to its slot\'s configured path, verified, records the install, and skips other files', async () => {
  for (const file of [sharedFiles.segmentation, sharedFiles.whisper, sharedFiles.vad]) await copyFile(file, join(stick, 'callscope-models', basename(file)));
  await writeFile(join(stick, 'README.txt'), 'models for the call box');

  const results = byFile(await importModels(stick, folder.config, manifest, options()));
  expect(results['pyannote-segmentation-3.0.fp16.onnx']).toMatchObject({
    outcome: 'imported', slot: 'segmentation', configKey: 'SEGMENTATION_MODEL', entry: 'pyannote-segmentation-3.0-fp16', target: folder.config.SEGMENTATION_MODEL,
  });
  expect(results['whisper-test-stub-tiny.en.bin']).toMatchObject({ outcome: 'imported', target: folder.config.WHISPER_MODEL });
  expect(results['silero-vad-v6.2.0-ggml.bin']).toMatchObject({ outcome: 'imported', target: folder.config.VAD_MODEL });
  expect(results['README.txt']).toMatchObject({ outcome: 'skipped', slot: null });

  expect(await sha256OfFile(folder.config.SEGMENTATION_MODEL)).toBe('f3dba0c91270b923e9ce66e4cef123820cb73c9b07e47e03a3d7d4267e4fbec4');
  const lock = await readManifestLock(folder.lockPath);
  expect(lock.installed[folder.config.WHISPER_MODEL]).toMatchObject({ entry: 'whisper-test-stub-tiny.en', sha256: 'dd6b7796204a1cdf7164666423034e6e1a7a3e9f5c22327b4b7974c4584bd82d' });
  const checks = (await inspectModels(folder.config, manifest, options())).map((slot) => [slot.slot, slot.check]);
  expect(Object.fromEntries(checks)).toEqual({ segmentation: 'ok', whisper: 'ok', vad: 'ok', embedding: 'missing', llm: 'missing' });
  // No temp file is left beside the models.
  expect((await readdir(folder.models)).filter((name) => name.endsWith('.import'))).toEqual([]);

  const again = byFile(await importModels(stick, folder.config, manifest, options()));
  expect(again['pyannote-segmentation-3.0.fp16.onnx']).toMatchObject({ outcome: 'unchanged' });
});

test('refuses a damaged file named as a manifest model and leaves the slot untouched', async () => {
  await truncatedCopy(sharedFiles.vad, join(stick, 'silero-vad-v6.2.0-ggml.bin'));
  const [result] = await importModels(stick, folder.config, manifest, options());
  expect(result).toMatchObject({ outcome: 'refused', slot: 'vad', fileName: 'silero-vad-v6.2.0-ggml.bin' });
  expect(result!.message).toMatch(/damaged or truncated/);
  expect(existsSync(folder.config.VAD_MODEL)).toBe(false);
});

test('never replaces a good file already installed (an own model), and says how to replace it', async () => {
  await writeFile(folder.config.WHISPER_MODEL, 'own whisper model');
  await copyFile(sharedFiles.whisper, join(stick, 'whisper-test-stub-tiny.en.bin'));
  const [result] = await importModels(stick, folder.config, manifest, options());
  expect(result).toMatchObject({ outcome: 'kept', slot: 'whisper', message: expect.stringMatching(/your own.*move it away/) });
  expect(await readFile(folder.config.WHISPER_MODEL, 'utf8')).toBe('own whisper model');
});

test('an unpinned model recognised by its published name is imported with a warning, and its digest recorded', async () => {
  const qwen = join(stick, 'qwen2.5-1.5b-instruct-q4_k_m.gguf');
  await writeFile(qwen, 'stand-in for the Qwen GGUF');
  const [result] = await importModels(stick, folder.config, manifest, options());
  expect(result).toMatchObject({ outcome: 'imported', slot: 'llm', entry: 'qwen2.5-1.5b-instruct-q4_k_m', warning: expect.stringMatching(/not pinned/) });
  const lock = await readManifestLock(folder.lockPath);
  expect(lock.recorded['qwen2.5-1.5b-instruct-q4_k_m']).toMatchObject({ sha256: await sha256OfFile(qwen), source: 'import' });
  const llm = (await inspectModels(folder.config, manifest, options())).find((slot) => slot.slot === 'llm');
  expect(llm).toMatchObject({ check: 'not_pinned' });
});

test('takes the archive a converted model is made from (the wheel downloaded on a connected machine) and converts it into place', async () => {
  const { wheel, pin } = await ge2eTestWheel();
  manifest = structuredClone(manifest);
  const entry = manifest.models.find((model) => model.name === 'ge2e-resemblyzer')!;
  pin(entry);
  await writeFile(join(stick, 'Resemblyzer-0.1.4-py3-none-any.whl'), wheel);

  const results = byFile(await importModels(stick, folder.config, manifest, options()));
  expect(results['Resemblyzer-0.1.4-py3-none-any.whl']).toMatchObject({
    outcome: 'imported', slot: 'embedding', entry: 'ge2e-resemblyzer', target: folder.config.EMBEDDING_MODEL,
    message: expect.stringMatching(/converted from its archive .*the result's SHA-256 verified too/),
  });
  expect(await sha256OfFile(folder.config.EMBEDDING_MODEL)).toBe(entry.sha256);
  expect((await readManifestLock(folder.lockPath)).installed[folder.config.EMBEDDING_MODEL]).toMatchObject({ entry: 'ge2e-resemblyzer', sha256: entry.sha256 });
  // Importing it again finds the converted model in place.
  expect(byFile(await importModels(stick, folder.config, manifest, options()))['Resemblyzer-0.1.4-py3-none-any.whl']).toMatchObject({ outcome: 'unchanged' });
});
