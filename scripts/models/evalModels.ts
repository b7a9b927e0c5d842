import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';

/**
 * `EVAL_MODELS_DIR/eval-models.json`, written by `npm run models:eval`: which evaluation models
 * are in the cache and where their files are, for tests, benchmarks and `eval:*` scripts.
 */

export const EvalModelEntrySchema = Type.Object({
  available: Type.Boolean({ description: 'False for a model whose packages do not give a usable model (see `defect`).' }),
  description: Type.String(),
  licence: Type.String(),
  defect: Type.Optional(Type.String()),
  checkedAt: Type.String({ description: 'When models:eval last checked every file (ISO 8601).' }),
  roles: Type.Record(Type.String(), Type.String(), { description: 'Role (`whisperGgml`, `ct2Directory`, `gguf`…) → path relative to EVAL_MODELS_DIR.' }),
  gguf: Type.Optional(Type.Object({
    architecture: Type.String(),
    name: Type.String(),
    fileType: Type.Integer(),
    instructionTuned: Type.Boolean({ description: 'It carries a chat template.' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
export type EvalModelEntry = Static<typeof EvalModelEntrySchema>;

export const EvalModelsManifestSchema = Type.Object({
  version: Type.Literal(1),
  models: Type.Record(Type.String(), EvalModelEntrySchema),
  pythonReference: Type.Optional(Type.Object({
    python: Type.String({ description: 'The virtual environment\'s interpreter, relative to EVAL_MODELS_DIR.' }),
    requirements: Type.String({ description: 'The pinned requirements it was made from.' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
export type EvalModelsManifest = Static<typeof EvalModelsManifestSchema>;

/** EVAL_MODELS_DIR, or `../eval-models` beside the repository: outside it, so weights are never committed. */
export function evalModelsDir(): string {
  return resolve(process.env.EVAL_MODELS_DIR ?? join(packageRoot, '..', 'eval-models'));
}

export function evalModelsManifestPath(directory = evalModelsDir()): string {
  return join(directory, 'eval-models.json');
}

/** The manifest, or an empty one when models:eval has not written it yet; a file that breaks the schema throws. */
export function readEvalModels(directory = evalModelsDir()): EvalModelsManifest {
  const path = evalModelsManifestPath(directory);
  if (!existsSync(path)) return { version: 1, models: {} };
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const problems = [...Value.Errors(EvalModelsManifestSchema, parsed)].map((error) => `${error.instancePath || '(root)'}: ${error.message}`);
  if (problems.length > 0) throw new Error(`${path} is not what models:eval writes (${problems.join('; ')}): run \`npm run models:eval\` again.`);
  return parsed as EvalModelsManifest;
}

/**
 * The files of evaluation model `id` by role, as absolute paths: for tests and eval scripts that
 * need real weights. Fails (never skips) with the command that fetches them when the cache does
 * not have the model.
 */
export function requireEvalModel(id: string, directory = evalModelsDir()): Record<string, string> {
  const fetchCommand = `npm run models:eval -- --only ${id}`;
  const entry = readEvalModels(directory).models[id];
  if (!entry) throw new Error(`The evaluation model ${id} is not in ${evalModelsManifestPath(directory)}: run \`${fetchCommand}\` (or \`npm run models:eval\` for all of them).`);
  if (!entry.available) throw new Error(`The evaluation model ${id} is not usable: ${entry.defect ?? 'see scripts/models/evalModels.json'}`);
  const roles: Record<string, string> = {};
  for (const [role, path] of Object.entries(entry.roles)) {
    roles[role] = join(directory, path);
    if (!existsSync(roles[role])) throw new Error(`${roles[role]} (${id}'s ${role}) is gone from the cache: run \`${fetchCommand}\`.`);
  }
  return roles;
}

/** `role` of `requireEvalModel(id)`, failing when the model has no such file. */
export function requireEvalModelFile(id: string, role: string, directory = evalModelsDir()): string {
  const path = requireEvalModel(id, directory)[role];
  if (path === undefined) throw new Error(`The evaluation model ${id} has no ${role} (see scripts/models/evalModels.json).`);
  return path;
}

/** The file of `id`'s `role` when models:eval has put it in the cache (absolute), else undefined: for scripts that run without it. */
export function cachedEvalModelFile(id: string, role: string, directory = evalModelsDir()): string | undefined {
  const relativePath = readEvalModels(directory).models[id]?.roles[role];
  return relativePath && existsSync(resolve(directory, relativePath)) ? resolve(directory, relativePath) : undefined;
}

/** The speaker encoder an evaluation runs: `EMBEDDING_MODEL` when set, else models:eval's converted GE2E encoder when cached, else undefined. */
export function evaluationSpeakerEncoder(): string | undefined {
  return process.env.EMBEDDING_MODEL || cachedEvalModelFile('ge2e-resemblyzer', 'voiceEncoderOnnx');
}
