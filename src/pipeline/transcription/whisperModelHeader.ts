import { open } from 'node:fs/promises';

/** The magic number at the start of a whisper.cpp ggml model file ("ggml"), little-endian u32. */
export const ggmlMagic = 0x67676d6c;

/**
 * The hyperparameters a whisper.cpp ggml model file starts with (after the magic), as int32
 * little-endian in this order (whisper.cpp 1.9 `whisper_model_load`; the project's converter in
 * scripts/models/whisper writes the same).
 */
export const whisperHyperParameterNames = [
  'n_vocab', 'n_audio_ctx', 'n_audio_state', 'n_audio_head', 'n_audio_layer',
  'n_text_ctx', 'n_text_state', 'n_text_head', 'n_text_layer', 'n_mels',
  /** 0: every tensor f32; 1: f16 weight matrices (a quantised file adds 1000 × its version). */
  'ftype',
] as const;
export type WhisperHyperParameters = Record<(typeof whisperHyperParameterNames)[number], number>;

/** Bytes of the magic and the hyperparameters; the mel filters' two int32 dimensions follow. */
export const whisperHeaderBytes = 4 + 4 * whisperHyperParameterNames.length;

/**
 * The hyperparameters of the ggml model at `path` (its first 48 bytes; the weights are never
 * read). Throws for a file too short or without the ggml magic.
 */
export async function readWhisperHyperParameters(path: string): Promise<WhisperHyperParameters> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(whisperHeaderBytes);
    const { bytesRead } = await file.read(header, 0, whisperHeaderBytes, 0);
    if (bytesRead < whisperHeaderBytes || header.readUInt32LE(0) !== ggmlMagic) throw new Error('not a whisper.cpp ggml model (magic)');
    const entries = whisperHyperParameterNames.map((name, index) => [name, header.readInt32LE(4 + 4 * index)] as const);
    return Object.fromEntries(entries) as WhisperHyperParameters;
  } finally {
    await file.close();
  }
}
