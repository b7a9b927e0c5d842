import type { CallMetadata } from '../../domain/calls/callTypes.js';
import type { Analysis, AnalysisProducer } from '../../domain/analysis/analysisSchema.js';
import type { Transcript } from '../../domain/transcripts/transcriptSchema.js';
import type { StageContext } from '../StageContext.js';

/** What an analyser reads: the speaker-attributed transcript and what the upload said about the call. */
export interface AnalysisInput {
  /** After speaker resolution: speakers carry their roles and names. */
  transcript: Transcript;
  metadata: CallMetadata;
  /** When the call was recorded (else uploaded), ms since the epoch: "next Tuesday" is relative to it. */
  recordedAt: number;
  /** IANA time zone in which dates said in the call are meant (the box's own, `ANALYSIS_TIME_ZONE`). */
  timeZone: string;
}

export interface AnalyserResult {
  /**
   * The analysis as the analyser made it, before grounding: it must validate against
   * `AnalysisSchema`, and its `actionItems` carry owners as the analyser saw them (reconciled
   * with the transcript later). `qualityWarnings` holds the analyser's own warnings.
   */
  analysis: Analysis;
  producer: AnalysisProducer;
}

/**
 * An analyser turns a transcript into an Analysis v2. Two implement it: the built-in one (rules
 * and lexicons, no model; the default) and the LLM one (node-llama-cpp with a GGUF model).
 * Grounding, validation and action-item reconciliation happen after it, the same for both
 * (`analyseCall`).
 */
export interface Analyser {
  analyse(input: AnalysisInput, context: StageContext): Promise<AnalyserResult>;
}
