import { copyFile, open, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { updateManifestLock } from '../../../src/infrastructure/models/manifestLock.js';
import type { ModelManifest } from '../../../src/infrastructure/models/manifestSchema.js';
import { ModelDigestCache, sha256OfFile, verifiedFilesPath } from '../../../src/infrastructure/models/ModelDigestCache.js';
import { inspectModels, type ModelSlotStatus } from '../../../src/infrastructure/models/modelInventory.js';
import { modelFolder, sharedFiles, truncatedCopy } from './modelFixtures.js';

// Uses the development model files in ../shared/models.

let folder: Awaited<ReturnType<typeof modelFolder>>;
let manifest: ModelManifest;
beforeEach(async () => {
  folder = await modelFolder();
  manifest = await installedModelManifest();
});
afterEach(async () => { await folder.remove(); });

const bySlot = (statuses: ModelSlotStatus[]) => Object.fromEntries(statuses.map((status) => [status.slot, status]));
const inspect = (digests = new ModelDigestCache()) => inspectModels(folder.config, manifest, { digests, lockPath: folder.lockPath });

describe('inspectModels', () => {
  test('reports the shared development files, copied or linked to the slots\' default names, as ok (development where they are stand-ins)', async () => {
    await copyFile(sharedFiles.segmentation, folder.config.SEGMENTATION_MODEL);
    await symlink(sharedFiles.whisper, folder.config.WHISPER_MODEL);
    await copyFile(sharedFiles.vad, folder.config.VAD_MODEL);
    await copyFile(sharedFiles.llm, folder.config.LLM_MODEL);

    const slots = bySlot(await inspect());
    expect(slots.segmentation).toMatchObject({
      check: 'ok', present: true, required: true, configKey: 'SEGMENTATION_MODEL', fileName: 'segmentation.onnx', sizeBytes: 3000918,
      sha256: 'f3dba0c91270b923e9ce66e4cef123820cb73c9b07e47e03a3d7d4267e4fbec4',
      manifestEntry: { name: 'pyannote-segmentation-3.0-fp16', development: false, licence: 'MIT' },
    });
    expect(slots.whisper).toMatchObject({ check: 'ok', manifestEntry: { name: 'whisper-test-stub-tiny.en', development: true } });
    expect(slots.vad).toMatchObject({ check: 'ok', manifestEntry: { name: 'silero-vad-v6.2.0' } });
    expect(slots.llm).toMatchObject({ check: 'ok', manifestEntry: { name: 'llama-2-tiny-random', development: true } });
    expect(slots.embedding).toMatchObject({ check: 'missing', required: false, present: false, sha256: null, manifestEntry: { name: 'wespeaker-voxceleb-resnet34-lm' } });
  });

  test('a truncated copy under its published name is checksum_mismatch, naming the model it should be', async () => {
    const damaged = await truncatedCopy(sharedFiles.segmentation, join(folder.models, 'pyannote-segmentation-3.0.fp16.onnx'));
    const slots = bySlot(await inspectModels({ ...folder.config, SEGMENTATION_MODEL: damaged }, manifest, { digests: new ModelDigestCache(), lockPath: folder.lockPath }));
    expect(slots.segmentation).toMatchObject({
      check: 'checksum_mismatch', present: true, sizeBytes: 1500459,
      manifestEntry: { name: 'pyannote-segmentation-3.0-fp16', sha256: 'f3dba0c91270b923e9ce66e4cef123820cb73c9b07e47e03a3d7d4267e4fbec4' },
    });
    expect(slots.segmentation!.message).toMatch(/damaged or truncated/);
  });

  test('a file that changed after fetch or import installed it is checksum_mismatch; the same file never installed so counts as an own model', async () => {
    await truncatedCopy(sharedFiles.segmentation, folder.config.SEGMENTATION_MODEL);
    expect(bySlot(await inspect()).segmentation).toMatchObject({ check: 'not_in_manifest' });

    await updateManifestLock(folder.lockPath, (lock) => {
      lock.installed[folder.config.SEGMENTATION_MODEL] = { entry: 'pyannote-segmentation-3.0-fp16', sha256: manifest.models[0]!.sha256!, installedAt: new Date().toISOString() };
    });
    expect(bySlot(await inspect()).segmentation).toMatchObject({ check: 'checksum_mismatch', manifestEntry: { name: 'pyannote-segmentation-3.0-fp16' } });
  });

  test('a missing required slot is missing and says how to install it; an unknown file is not_in_manifest (allowed)', async () => {
    await writeFile(folder.config.WHISPER_MODEL, 'an administrator\'s own fine-tuned model');
    const slots = bySlot(await inspect());
    expect(slots.segmentation).toMatchObject({ check: 'missing', required: true, present: false, sizeBytes: null, manifestEntry: { name: 'pyannote-segmentation-3.0-fp16' } });
    expect(slots.segmentation!.message).toMatch(/callscope models fetch .* callscope models import/);
    expect(slots.whisper).toMatchObject({ check: 'not_in_manifest', present: true, manifestEntry: { name: 'whisper-base.en' } });
    expect(slots.whisper!.message).toMatch(/your own model/);
  });

  test('a file of another slot is not_in_manifest, and says which model it is', async () => {
    await copyFile(sharedFiles.vad, folder.config.WHISPER_MODEL);
    expect(bySlot(await inspect()).whisper).toMatchObject({ check: 'not_in_manifest', message: expect.stringMatching(/silero-vad-v6\.2\.0, a vad model, not a whisper model/) });
  });

  test('an unpinned entry is not_pinned: by its published name alone, or by the digest recorded on first fetch; another digest then is checksum_mismatch', async () => {
    const llm = join(folder.models, 'qwen2.5-1.5b-instruct-q4_k_m.gguf');
    await writeFile(llm, 'a GGUF file standing in for Qwen');
    const config = { ...folder.config, LLM_MODEL: llm };
    const llmStatus = async () => bySlot(await inspectModels(config, manifest, { digests: new ModelDigestCache(), lockPath: folder.lockPath })).llm;
    const record = (sha256: string) => updateManifestLock(folder.lockPath, (lock) => {
      lock.recorded['qwen2.5-1.5b-instruct-q4_k_m'] = { sha256, size: 32, recordedAt: new Date().toISOString(), source: 'https://example.test/qwen.gguf' };
    });

    expect(await llmStatus()).toMatchObject({ check: 'not_pinned', manifestEntry: { name: 'qwen2.5-1.5b-instruct-q4_k_m', sha256: null }, message: expect.stringMatching(/not verified/) });
    await record(await sha256OfFile(llm));
    expect(await llmStatus()).toMatchObject({ check: 'not_pinned', message: expect.stringMatching(/as first fetched/) });
    await record('a'.repeat(64));
    expect(await llmStatus()).toMatchObject({ check: 'checksum_mismatch' });
  });
});

describe('the digest cache', () => {
  test('hashes a file once while its size and mtime stay the same, and again after it changes', async () => {
    await copyFile(sharedFiles.segmentation, folder.config.SEGMENTATION_MODEL);
    const digests = new ModelDigestCache();
    await inspect(digests);
    await inspect(digests);
    expect(digests.hashedFiles).toBe(1);

    await utimes(folder.config.SEGMENTATION_MODEL, new Date(), new Date(Date.now() + 5000));
    await inspect(digests);
    expect(digests.hashedFiles).toBe(2);
  });

  test('hashes a file again when it was rewritten with its size and mtime put back (cp -p, rsync -a, touch -r): its change time moved', async () => {
    // As `callscope models fetch` leaves it: installed, recorded in the lock file.
    const model = folder.config.SEGMENTATION_MODEL;
    await copyFile(sharedFiles.segmentation, model);
    await updateManifestLock(folder.lockPath, (lock) => {
      lock.installed[model] = { entry: 'pyannote-segmentation-3.0-fp16', sha256: manifest.models[0]!.sha256!, installedAt: new Date().toISOString() };
    });
    const timestamp = new Date('2026-01-02T03:04:05Z');
    await utimes(model, timestamp, timestamp);
    const digests = new ModelDigestCache(verifiedFilesPath(folder.config.DATA_DIR));
    const segmentationCheck = async (cache: ModelDigestCache) => bySlot(await inspect(cache)).segmentation?.check;
    expect(await segmentationCheck(digests)).toBe('ok');

    // A run of bytes in the middle overwritten, same size, the old timestamps restored.
    const handle = await open(model, 'r+');
    await handle.write(Buffer.alloc(4096, 0xab), 0, 4096, 1_500_000);
    await handle.close();
    await utimes(model, timestamp, timestamp);
    expect((await stat(model)).mtime).toEqual(timestamp);
    expect(await segmentationCheck(digests)).toBe('checksum_mismatch');
    expect(digests.hashedFiles).toBe(2);
    // And so does a later process, whose cache file now holds the damaged copy's digest.
    expect(await segmentationCheck(new ModelDigestCache(verifiedFilesPath(folder.config.DATA_DIR)))).toBe('checksum_mismatch');
  });

  test('a cache file without change times (written before they were recorded) is started afresh', async () => {
    await copyFile(sharedFiles.vad, folder.config.VAD_MODEL);
    const stats = await stat(folder.config.VAD_MODEL);
    const files = { [folder.config.VAD_MODEL]: { sizeBytes: stats.size, mtimeMs: stats.mtimeMs, sha256: 'c'.repeat(64) } };
    await writeFile(verifiedFilesPath(folder.config.DATA_DIR), JSON.stringify({ version: 1, files }));
    const cache = new ModelDigestCache(verifiedFilesPath(folder.config.DATA_DIR));
    expect(await cache.digest(folder.config.VAD_MODEL)).toEqual({ sizeBytes: stats.size, sha256: '2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987' });
    expect(cache.hashedFiles).toBe(1);
  });

  test('keeps digests in <DATA_DIR>/models-verified.json, and trusts them in a later process without hashing', async () => {
    await copyFile(sharedFiles.vad, folder.config.VAD_MODEL);
    await inspectModels(folder.config, manifest, { digests: new ModelDigestCache(verifiedFilesPath(folder.config.DATA_DIR)), lockPath: folder.lockPath });
    const stored = JSON.parse(await readFile(verifiedFilesPath(folder.config.DATA_DIR), 'utf8')) as { files: Record<string, { sizeBytes: number; mtimeMs: number; ctimeMs: number; sha256: string }> };
    expect(stored.files[folder.config.VAD_MODEL]?.sha256).toBe('2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987');

    // A file this process never hashed, whose digest the cache file already holds, is not read:
    // the (deliberately wrong) stored digest is what comes back.
    const unseen = join(folder.models, 'unseen.bin');
    await writeFile(unseen, 'never hashed in this process');
    const stats = await stat(unseen);
    stored.files[unseen] = { sizeBytes: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, sha256: 'c'.repeat(64) };
    await writeFile(verifiedFilesPath(folder.config.DATA_DIR), JSON.stringify(stored));
    const laterProcess = new ModelDigestCache(verifiedFilesPath(folder.config.DATA_DIR));
    expect(await laterProcess.digest(unseen)).toEqual({ sizeBytes: stats.size, sha256: 'c'.repeat(64) });
    expect(laterProcess.hashedFiles).toBe(0);
  });
});
