/*
 * What the speech stages hand each other. All times are seconds from the start of the cleaned
 * (16 kHz) audio, which keeps the original's timeline.
 */

/** A stretch of time in which one speaker talks, as diarization found it. Turns of different speakers may overlap. */
export interface SpeakerTurn {
  /** Raw speaker id from diarization, stable within one call: `SPEAKER_00`, `SPEAKER_01`, … */
  speaker: string;
  startSeconds: number;
  endSeconds: number;
}

export interface Diarization {
  /** Sorted by start time. */
  turns: SpeakerTurn[];
  /** Distinct speakers found (0 when no speech). */
  speakerCount: number;
  /**
   * How speakers were told apart: per stereo channel, by clustering speaker embeddings, or by
   * linking the segmentation model's local speakers across overlapping windows.
   */
  method: 'channel' | 'embedding-clustering' | 'window-linking';
  /** Provenance: provider and model file names (no paths). */
  provider: string;
  model: string;
}

/** One recognised word with its timing. */
export interface TranscribedWord {
  /** The word as recognised, with its punctuation, without surrounding spaces. */
  text: string;
  startSeconds: number;
  endSeconds: number;
  /** Recognition confidence, 0..1. */
  probability: number;
}

export interface Transcription {
  /** ISO 639-1 code detected or configured, e.g. `en`. */
  language: string;
  /** Sorted by start time. Empty when no speech was recognised. */
  words: TranscribedWord[];
  /** Provenance: provider and model file names (no paths). */
  provider: string;
  model: string;
}
