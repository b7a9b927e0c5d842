import { copyFile, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../../src/config/configSchema.js';
import type { ModelConfigKey } from '../../../src/infrastructure/models/modelSlots.js';

/** The development model files every checkout shares (real digests in ../shared/models/MANIFEST.md). */
export const sharedModels = resolve(import.meta.dirname, '../../../../shared/models');
export const sharedFiles = {
  segmentation: join(sharedModels, 'pyannote-segmentation-3.0.fp16.onnx'),
  whisper: join(sharedModels, 'whisper-test-stub-tiny.en.bin'),
  vad: join(sharedModels, 'silero-vad-v6.2.0-ggml.bin'),
  llm: join(sharedModels, 'llama-2-tiny-random.gguf'),
} as const;

export type ModelConfig = Pick<Config, ModelConfigKey | 'DATA_DIR'>;

/** A scratch folder with `models/` (the slots' default file names) and `data/`, and a config pointing at them. */
export async function modelFolder(): Promise<{ root: string; models: string; config: ModelConfig; lockPath: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'callscope-models-'));
  const models = join(root, 'models');
  const config: ModelConfig = {
    DATA_DIR: join(root, 'data'),
    SEGMENTATION_MODEL: join(models, 'segmentation.onnx'),
    WHISPER_MODEL: join(models, 'whisper.bin'),
    EMBEDDING_MODEL: join(models, 'embedding.onnx'),
    VAD_MODEL: join(models, 'vad.bin'),
    LLM_MODEL: join(models, 'llm.gguf'),
  };
  await mkdir(models, { recursive: true });
  await mkdir(config.DATA_DIR, { recursive: true });
  return { root, models, config, lockPath: join(models, 'manifest.lock.json'), remove: () => rm(root, { recursive: true, force: true }) };
}

/** A copy of `source` cut to its first half: what an interrupted copy or download leaves. */
export async function truncatedCopy(source: string, target: string): Promise<string> {
  await copyFile(source, target);
  const handle = await open(target, 'r+');
  try {
    await handle.truncate(Math.floor((await handle.stat()).size / 2));
  } finally {
    await handle.close();
  }
  return target;
}
