import type { Config } from '../config/configSchema.js';
import type { Transcript } from '../domain/transcripts/transcriptSchema.js';
import { alignWordsToSpeakers } from '../pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio, type CleanedAudio } from '../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio, type DiarizeAudioOptions } from '../pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../pipeline/normalization/buildTranscript.js';
import { resolveSpeakers } from '../pipeline/speakers/resolveSpeakers.js';
import type { Diarization, Transcription } from '../pipeline/speechTypes.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import type { TranscriptionOptions } from '../pipeline/transcription/transcribeAudio.js';
import { transcribeAudio } from '../pipeline/transcription/transcribeAudio.js';
import { transcriptionOptionsFromConfig } from '../pipeline/transcription/transcriptionOptionsFromConfig.js';
import type { CallPipeline, PipelineJob, PipelineRun } from './CallPipeline.js';
import type { StageDefinition } from './CallRun.js';

/**
 * The stages of the production pipeline, in order, with their share of a run's progress
 * (on CPU, transcription dominates: clean-up ~50×, diarization ~45× real time, whisper slower).
 */
export const productionStages = {
  cleanup: { name: 'cleanup', phase: 'TRANSCRIBING', weight: 0.05 },
  diarization: { name: 'diarization', phase: 'TRANSCRIBING', weight: 0.1 },
  transcription: { name: 'transcription', phase: 'TRANSCRIBING', weight: 0.6 },
  alignment: { name: 'alignment', phase: 'TRANSCRIBING', weight: 0.02 },
  speakerResolution: { name: 'speakerResolution', phase: 'TRANSCRIBING', weight: 0.01 },
} as const satisfies Record<string, StageDefinition>;

/** What the speech stages need besides the job: limits, model files, engine settings. */
export interface SpeechOptions {
  maxDurationSeconds: number;
  diarization: DiarizeAudioOptions;
  transcription: TranscriptionOptions;
}

export function speechOptionsFromConfig(
  config: Pick<Config, 'MAX_AUDIO_DURATION_SECONDS' | 'SEGMENTATION_MODEL' | 'EMBEDDING_MODEL' | 'WHISPER_MODEL' | 'VAD_MODEL' | 'WHISPER_THREADS' | 'WHISPER_LANGUAGE'>,
): SpeechOptions {
  return {
    maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS,
    diarization: { segmentationModel: config.SEGMENTATION_MODEL, embeddingModel: config.EMBEDDING_MODEL },
    transcription: transcriptionOptionsFromConfig(config),
  };
}

export interface SpeechResult {
  cleaned: CleanedAudio;
  diarization: Diarization;
  transcription: Transcription;
  transcript: Transcript;
}

/**
 * Audio → speaker-attributed transcript: clean-up, diarization, transcription, word-to-speaker
 * alignment, normalisation and speaker-name resolution. Used by the service's pipeline and by
 * `callscope process`.
 */
export async function runSpeechStages(
  job: Pick<PipelineJob, 'callId' | 'audioPath' | 'workDir' | 'metadata' | 'userDisplayName'> & { createdAt: number },
  run: PipelineRun,
  options: SpeechOptions,
): Promise<SpeechResult> {
  const cleaned = await run.stage(productionStages.cleanup, (context) => cleanAudio({
    sourcePath: job.audioPath, outputDir: job.workDir, maxDurationSeconds: options.maxDurationSeconds,
  }, context));
  const diarization = await run.stage(productionStages.diarization, (context) => diarizeAudio(cleaned, options.diarization, context));
  const transcription = await run.stage(productionStages.transcription, (context) => transcribeAudio(
    { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds },
    { ...options.transcription, tempDir: job.workDir },
    context,
  ));
  const diarizedTranscript = await run.stage(productionStages.alignment, async () => buildTranscript({
    callId: job.callId,
    createdAt: job.createdAt,
    durationSeconds: cleaned.durationSeconds,
    words: alignWordsToSpeakers(transcription.words, diarization.turns),
    diarization,
    transcription,
  }));
  // The voice-profile match joins these inputs when voice profiles are enabled.
  const transcript = await run.stage(productionStages.speakerResolution, async () => resolveSpeakers(diarizedTranscript, {
    metadata: job.metadata,
    ...(job.userDisplayName ? { userDisplayName: job.userDisplayName } : {}),
  }));
  return { cleaned, diarization, transcription, transcript };
}

/**
 * The pipeline the service runs: the speech stages (through speaker resolution), then the
 * analysis stages, which plug in after the transcript as they are built. Until the analysis exists, a call
 * fails after a successful transcript with a reason that says so.
 */
export function createProductionPipeline(config: Config): CallPipeline {
  const options = speechOptionsFromConfig(config);
  return async (job, run) => {
    await runSpeechStages({ ...job, createdAt: Date.now() }, run, options);
    throw new StageFailure('unavailable', 'Call analysis is not installed in this version of Callscope; the call can be reprocessed after an update');
  };
}
