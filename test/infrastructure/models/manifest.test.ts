import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { defaultManifestPath, loadModelManifest, ManifestError } from '../../../src/infrastructure/models/loadModelManifest.js';
import type { ModelManifest } from '../../../src/infrastructure/models/manifestSchema.js';
import { modelSlots } from '../../../src/infrastructure/models/modelSlots.js';
import { modelFolder } from './modelFixtures.js';

/** Digests of ../shared/models as its MANIFEST.md lists them. */
const sharedDigests = {
  'pyannote-segmentation-3.0.fp16.onnx': 'f3dba0c91270b923e9ce66e4cef123820cb73c9b07e47e03a3d7d4267e4fbec4',
  'silero-vad-v6.2.0-ggml.bin': '2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987',
  'whisper-test-stub-tiny.en.bin': 'dd6b7796204a1cdf7164666423034e6e1a7a3e9f5c22327b4b7974c4584bd82d',
  'llama-2-tiny-random.gguf': '81f226c62d28ed4a1a9b9fa080fcd9f0cc40e0f9d5680036583ff98fbcd035cb',
};

describe('models/manifest.json', () => {
  test('validates, and recommends one downloadable production model per slot, installed at the slot\'s default path', async () => {
    const manifest = await loadModelManifest();
    for (const { slot } of modelSlots) {
      const recommended = manifest.models.filter((entry) => entry.slot === slot && entry.recommended);
      expect(recommended).toHaveLength(1);
      expect(recommended[0]?.development).toBeFalsy();
      expect(recommended[0]?.url).toMatch(/^https:\/\//);
    }
    expect(manifest.models.find((entry) => entry.slot === 'whisper' && entry.recommended)?.fileName).toBe('models/whisper.bin');
  });

  test('lists every development file of ../shared/models under its real digest; the two structure-only ones as development entries', async () => {
    const manifest = await loadModelManifest();
    for (const [fileName, sha256] of Object.entries(sharedDigests)) {
      const entry = manifest.models.find((candidate) => candidate.aliases.includes(fileName));
      expect(entry?.sha256, fileName).toBe(sha256);
    }
    const development = manifest.models.filter((entry) => entry.development).map((entry) => entry.name);
    expect(development.sort()).toEqual(['llama-2-tiny-random', 'whisper-test-stub-tiny.en']);
  });

  test('entries whose digest is not known for certain carry neither digest nor size', async () => {
    const manifest = await loadModelManifest();
    const unpinned = manifest.models.filter((entry) => entry.sha256 === null);
    expect(unpinned.length).toBeGreaterThan(0);
    for (const entry of unpinned) expect(entry.size).toBeNull();
  });
});

describe('loadModelManifest refuses a manifest', () => {
  let remove: (() => Promise<void>) | undefined;
  afterEach(async () => { await remove?.(); });

  async function loadAltered(alter: (manifest: ModelManifest) => void): Promise<unknown> {
    const folder = await modelFolder();
    remove = folder.remove;
    const manifest = JSON.parse(await readFile(defaultManifestPath, 'utf8')) as ModelManifest;
    alter(manifest);
    const path = join(folder.root, 'manifest.json');
    await writeFile(path, JSON.stringify(manifest));
    return loadModelManifest(path).catch((error: unknown) => error);
  }

  test('that breaks the schema (a digest that is not hex)', async () => {
    const error = await loadAltered((manifest) => { manifest.models[0]!.sha256 = 'not-a-digest'; });
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).problems.join('\n')).toMatch(/\/models\/0\/sha256/);
  });

  test('with two entries of one digest, a slot without a recommendation, or an install path that is not the slot\'s', async () => {
    const error = await loadAltered((manifest) => {
      manifest.models[1]!.sha256 = manifest.models[0]!.sha256;
      for (const entry of manifest.models) if (entry.slot === 'vad') entry.recommended = false;
      manifest.models[0]!.fileName = 'models/other.onnx';
    });
    const problems = (error as ManifestError).problems.join('\n');
    expect(problems).toMatch(/same sha256/);
    expect(problems).toMatch(/slot vad: 0 recommended/);
    expect(problems).toMatch(/fileName must be .*models\/segmentation\.onnx/);
  });
});
