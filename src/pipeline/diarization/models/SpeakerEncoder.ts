import type { Disposable } from '../../../infrastructure/workers/WorkerResources.js';
import { threadResources } from '../../../infrastructure/workers/WorkerResources.js';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { diarizationFailures } from '../diarizationFailures.js';
import { EmbeddingModel } from './EmbeddingModel.js';
import { Ge2eEncoder } from './Ge2eEncoder.js';
import { readOnnxMetadata } from './readOnnxMetadata.js';

/**
 * The kinds of speaker-embedding model the embedding slot runs, each with its own front end:
 * - `ge2e`: the GE2E voice encoder (Resemblyzer's, converted by src/infrastructure/models/conversion/ge2eCheckpointToOnnx.ts):
 *   40-band mel power spectrogram, 1.6 s partials averaged;
 * - `fbank`: WeSpeaker ResNet34 / 3D-Speaker CAM++: 80-band Kaldi fbank of the whole stretch.
 */
export const speakerEncoderKinds = ['ge2e', 'fbank'] as const;
export type SpeakerEncoderKind = (typeof speakerEncoderKinds)[number];

/** What the diarization and the voice profiles ask of a speaker-embedding model, whatever its kind. */
export interface SpeakerEncoder extends Disposable {
  readonly kind: SpeakerEncoderKind;
  /** The model file's name, for provenance (no path). */
  readonly fileName: string;
  /**
   * The unit-length embedding of one speaker's speech.
   * @param samples shape: (samples), floats in −1 … 1 at 16 kHz, speech of one speaker
   * @returns shape: (dimension), unit length
   */
  embedSpeech(samples: Float32Array): Promise<Float32Array>;
  /**
   * {@link embedSpeech} of several stretches at once (one model run where the kind allows: more
   * work per run keeps a second CPU thread busy).
   * @param stretches each shape: (samples), floats in −1 … 1 at 16 kHz, speech of one speaker
   * @returns shape: (stretches) of (dimension), each unit length
   */
  embedSpeeches(stretches: readonly Float32Array[]): Promise<Float32Array[]>;
}

/** The metadata key a converted model states its kind under (ge2eCheckpointToOnnx writes it). */
export const ENCODER_KIND_METADATA_KEY = 'callscope.embedding.kind';

/**
 * The kind of the model at `path`: what its ONNX metadata states, else `fallbackKind` (the
 * manifest entry's, when the file is one the manifest lists), else `fbank` (the kind of every
 * downloadable model the manifest names). Never guessed from the file's name.
 */
export async function speakerEncoderKindOf(path: string, fallbackKind?: SpeakerEncoderKind): Promise<SpeakerEncoderKind> {
  // A file that is no protobuf (truncated, another format) fails as onnxruntime's refusal would: the operator's reason names the setting, not the path.
  const metadata = await readOnnxMetadata(path).catch((error: unknown) => { throw diarizationFailures.embeddingModelUnusable(modelDisplayName(path), error); });
  const stated = metadata.get(ENCODER_KIND_METADATA_KEY);
  if (stated !== undefined) {
    if (!(speakerEncoderKinds as readonly string[]).includes(stated)) {
      throw diarizationFailures.embeddingModelUnusable(modelDisplayName(path), new Error(`the model states an unknown kind "${stated}" (known: ${speakerEncoderKinds.join(', ')})`));
    }
    return stated as SpeakerEncoderKind;
  }
  return fallbackKind ?? 'fbank';
}

/** The encoder classes, told apart by `kind`: callers that need one kind's own methods narrow on it. */
export type LoadedSpeakerEncoder = Ge2eEncoder | EmbeddingModel;

/**
 * Loads the model at `path` as the encoder of its kind.
 * @param intraOpThreads CPU threads one run may use (see createOnnxSession)
 */
export async function createSpeakerEncoder(path: string, intraOpThreads = 1): Promise<LoadedSpeakerEncoder> {
  const kind = await speakerEncoderKindOf(path);
  return kind === 'ge2e' ? Ge2eEncoder.create(path, intraOpThreads) : EmbeddingModel.create(path, intraOpThreads);
}

/** The current worker thread's encoder for the model at `path` with `intraOpThreads` threads, created on first use. */
export function loadSpeakerEncoder(path: string, intraOpThreads = 1): Promise<LoadedSpeakerEncoder> {
  return threadResources.get(`speaker-encoder:${path}:${intraOpThreads}`, () => createSpeakerEncoder(path, intraOpThreads));
}

/**
 * How voice profiles name the model their embeddings came from: the file's name, with the kind
 * after a `#` for every kind but `fbank` (the only kind profiles were made with before there were
 * two, whose profiles keep their name). Embeddings under two names are never compared.
 */
export function speakerEncoderIdentity(fileName: string, kind: SpeakerEncoderKind): string {
  return kind === 'fbank' ? fileName : `${fileName}#${kind}`;
}
