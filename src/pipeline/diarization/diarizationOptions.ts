import type { SpeakerEncoderKind } from './models/SpeakerEncoder.js';

/** The tunable thresholds of the diarization pipeline (see docs/architecture.md, Diarization, for how they were chosen). */
export interface DiarizationOptions {
  /** Seconds between the starts of consecutive 10 s segmentation windows. Defaults to `2.5`. */
  stepSeconds?: number;
  /** Windows per segmentation model run. Defaults to `8`. */
  batchSize?: number;
  /** Window linking: least agreement (fuzzy Jaccard, 0..1) over the shared frames for a local speaker to continue a call-level speaker. Defaults to `0.3`. */
  minLinkAgreement?: number;
  /** Window linking: an unlinked local speaker must be active this long in its window to start a new speaker, seconds. Defaults to `0.5`. */
  minNewSpeakerSeconds?: number;
  /**
   * Embedding clustering: distance (Euclidean between unit-length embeddings, centroid linkage)
   * below which clusters merge. Defaults to the encoder kind's ({@link defaultClusteringThresholds}).
   */
  clusteringThreshold?: number;
  /**
   * Embedding clustering (GE2E): a speaker with less solo speech than this is folded into the
   * most similar one, seconds. Defaults to `1.5` (chosen with the threshold, see {@link defaultClusteringThresholds}).
   */
  minSpeakerSeconds?: number;
  /** Embedding clustering: a (window, local speaker) embedding is computed from at least this much speech, seconds. Defaults to `0.5`. */
  minEmbeddingSeconds?: number;
  /** Pauses of a speaker up to this long are bridged into one turn, seconds. Defaults to `0.25`. */
  maxGapSeconds?: number;
  /** Turns shorter than this are dropped, seconds. Defaults to `0.25`. */
  minTurnSeconds?: number;
  /** Window linking's voice step: weight of the BIC penalty for telling two voices apart (higher: fewer speakers). Defaults to `1.3`. */
  voicePenaltyWeight?: number;
  /** Window linking's voice step: what changing voice inside a stretch of solo speech costs in re-segmentation, nats (`Infinity`: no re-segmentation). Defaults to `30`. */
  voiceSwitchPenalty?: number;
  /** Window linking's voice step: a speaker needs this much speech on their own for their voice to be compared, seconds. Defaults to `1.5`. */
  minVoiceSeconds?: number;
  /** Window linking's voice step: speakers who talk at the same time for longer than this are never joined, seconds. Defaults to `1`. */
  maxSharedSeconds?: number;
  /**
   * The number of speakers when known (`--speakers N`): embedding clustering cuts its dendrogram at
   * N clusters; window linking joins voices (and then folds speakers) until N remain. Defaults to unknown.
   */
  speakerCount?: number;
  /**
   * At least this many speakers (a hint): embedding clustering cuts its dendrogram at this many
   * when its threshold gives fewer; window linking stops joining voices there. Defaults to none.
   */
  minSpeakers?: number;
  /**
   * At most this many speakers (a hint): embedding clustering cuts its dendrogram at this many
   * when its threshold gives more; window linking joins the most alike voices until no more remain. Defaults to none.
   */
  maxSpeakers?: number;
}

export const defaultDiarizationOptions: Required<Omit<DiarizationOptions, 'speakerCount' | 'minSpeakers' | 'maxSpeakers' | 'clusteringThreshold'>> = {
  stepSeconds: 2.5,
  batchSize: 8,
  minLinkAgreement: 0.3,
  minNewSpeakerSeconds: 0.5,
  voicePenaltyWeight: 1.3,
  voiceSwitchPenalty: 30,
  minVoiceSeconds: 1.5,
  maxSharedSeconds: 1,
  minSpeakerSeconds: 1.5,
  minEmbeddingSeconds: 0.5,
  maxGapSeconds: 0.25,
  minTurnSeconds: 0.25,
};

/**
 * The clustering threshold of each encoder kind: `fbank` is pyannote 3.1's with WeSpeaker
 * ResNet34 (per-window embeddings); `ge2e` was chosen on the tuning half of
 * `npm run eval:diarization`'s LibriSpeech conversations: at 0.66 (with 1.5 s for a speaker)
 * all six have no confusion and the right number of speakers, at 0.65 and 0.67 one does not
 * (BENCHMARKS.md, "Diarization with the GE2E encoder").
 */
export const defaultClusteringThresholds: Readonly<Record<SpeakerEncoderKind, number>> = {
  fbank: 0.7045654963945799,
  ge2e: 0.66,
};
