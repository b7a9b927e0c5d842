import type { NewActionItemRecord } from '../domain/actions/ActionItemRepository.js';
import type { CallMetadata } from '../domain/calls/callTypes.js';
import type { VersionedDocument } from '../domain/calls/storeCallResults.js';
import type { CallRun } from './CallRun.js';

/** Everything the stages of one call may read: typed inputs, no database, no request. */
export interface PipelineJob {
  callId: string;
  /** The stored original upload (absolute path). */
  audioPath: string;
  audioFormat: string;
  /** A folder for this run's working files (absolute; created empty, removed after the run). */
  workDir: string;
  metadata: CallMetadata;
  /** When the call was recorded (else uploaded), ms since the epoch: dates in the call are relative to it. */
  recordedAt: number;
  /** The user's display name, used to recognise them in the transcript. */
  userDisplayName?: string;
}

/** What a completed run stores. */
export interface PipelineResult {
  transcript: VersionedDocument;
  analysis: VersionedDocument;
  analysisProducer: Record<string, unknown>;
  actionItems: Omit<NewActionItemRecord, 'callId' | 'userId'>[];
  /** Whole seconds of decoded audio. */
  durationSeconds: number;
}

/**
 * A call's stages in order. Each stage runs through `run.stage(...)` (the hook that records
 * events, progress and metrics); `run.enterPhase('ANALYZING')` marks the move to analysis.
 * Throwing a StageFailure fails the call with its reason.
 */
export type CallPipeline = (job: PipelineJob, run: CallRun) => Promise<PipelineResult>;
