import type { NewActionItemRecord } from '../domain/actions/ActionItemRepository.js';
import type { CallMetadata } from '../domain/calls/callTypes.js';
import type { VersionedDocument } from '../domain/calls/storeCallResults.js';
import type { StageContext } from '../pipeline/StageContext.js';
import type { CallPhase, StageDefinition } from './CallRun.js';

/** Everything the stages of one call may read: typed inputs, no database, no request. */
export interface PipelineJob {
  callId: string;
  /** The call's owner (whose voice profile, if any, is matched). */
  userId: string;
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
 * What a pipeline runs its stages through: the engine's {@link CallRun} (events, progress,
 * metrics, leases) in the service, a plain in-process runner in the command line.
 */
export interface PipelineRun {
  /** Runs a required stage; its failure ends the run (after the stage's transient retries). */
  stage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>): Promise<T>;
  /** Runs a stage whose failure only adds `warning` and yields `fallback`. */
  optionalStage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>, fallback: T, warning: string): Promise<T>;
  /** Marks the move to the next user-visible phase (TRANSCRIBING → ANALYZING). */
  enterPhase(phase: CallPhase): Promise<void>;
}

/**
 * A call's stages in order. Each stage runs through `run.stage(...)` (the hook that records
 * events, progress and metrics); `run.enterPhase('ANALYZING')` marks the move to analysis.
 * Throwing a StageFailure fails the call with its reason.
 */
export type CallPipeline = (job: PipelineJob, run: PipelineRun) => Promise<PipelineResult>;
