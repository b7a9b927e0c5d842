import type { Config } from '../config/configSchema.js';
import type { Transcript } from '../domain/transcripts/transcriptSchema.js';
import type { VoiceProfileRepository } from '../domain/voiceProfiles/VoiceProfileRepository.js';
import { alignWordsToSpeakers } from '../pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio, type CleanedAudio } from '../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio, type DiarizeAudioOptions } from '../pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../pipeline/normalization/buildTranscript.js';
import { resolveSpeakers, type VoiceMatchOutcome } from '../pipeline/speakers/resolveSpeakers.js';
import type { Diarization, Transcription } from '../pipeline/speechTypes.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import type { TranscriptionOptions } from '../pipeline/transcription/transcribeAudio.js';
import { transcribeAudio } from '../pipeline/transcription/transcribeAudio.js';
import { transcriptionOptionsFromConfig } from '../pipeline/transcription/transcriptionOptionsFromConfig.js';
import { matchCallVoices, type CallVoiceMatchOptions, type ProfileVoice } from '../pipeline/voice/matchCallVoices.js';
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
  voiceMatch: { name: 'voiceMatch', phase: 'TRANSCRIBING', weight: 0.02 },
  speakerResolution: { name: 'speakerResolution', phase: 'TRANSCRIBING', weight: 0.01 },
} as const satisfies Record<string, StageDefinition>;

/** What the speech stages need besides the job: limits, model files, engine settings. */
export interface SpeechOptions {
  maxDurationSeconds: number;
  diarization: DiarizeAudioOptions;
  transcription: TranscriptionOptions;
  voiceMatch: CallVoiceMatchOptions;
}

export function speechOptionsFromConfig(
  config: Pick<Config, 'MAX_AUDIO_DURATION_SECONDS' | 'SEGMENTATION_MODEL' | 'EMBEDDING_MODEL' | 'WHISPER_MODEL' | 'VAD_MODEL' | 'WHISPER_THREADS' | 'WHISPER_LANGUAGE'
    | 'SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD' | 'SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD'>,
): SpeechOptions {
  return {
    maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS,
    diarization: { segmentationModel: config.SEGMENTATION_MODEL, embeddingModel: config.EMBEDDING_MODEL },
    transcription: transcriptionOptionsFromConfig(config),
    voiceMatch: {
      embeddingModel: config.EMBEDDING_MODEL,
      thresholds: { high: config.SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD, medium: config.SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD },
    },
  };
}

/**
 * What voice matching can do in a run, decided before it starts: compare with the user's
 * profile (`READY`), or report why not (`DISABLED`, `NO_PROFILE`, or `FAILED` when the stored
 * profile cannot be read).
 */
export type VoiceMatchPlan =
  | { status: 'READY'; profile: ProfileVoice }
  | { status: 'DISABLED' | 'NO_PROFILE' }
  | { status: 'FAILED'; warning: string };

const voiceMatchFailed: VoiceMatchOutcome = { status: 'FAILED', warning: 'Voice match failed; speakers were resolved from the transcript alone' };

export interface SpeechResult {
  cleaned: CleanedAudio;
  diarization: Diarization;
  transcription: Transcription;
  transcript: Transcript;
  /** How the user's voice profile was used (status `DISABLED` when it was not). */
  voiceMatch: VoiceMatchOutcome;
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
  voice: VoiceMatchPlan = { status: 'DISABLED' },
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
  // Matching fails softly: a failure only leaves text resolution to do the work.
  const voiceMatch: VoiceMatchOutcome = voice.status === 'READY'
    ? await run.optionalStage(productionStages.voiceMatch, (context) => matchCallVoices({
      monoPath: cleaned.monoPath, turns: diarization.turns, transcript: diarizedTranscript, profile: voice.profile,
    }, options.voiceMatch, context), voiceMatchFailed, voiceMatchFailed.warning!)
    : voice;
  const transcript = await run.stage(productionStages.speakerResolution, async () => resolveSpeakers(diarizedTranscript, {
    metadata: job.metadata,
    ...(job.userDisplayName ? { userDisplayName: job.userDisplayName } : {}),
    voiceMatch,
  }));
  return { cleaned, diarization, transcription, transcript, voiceMatch };
}

/**
 * The pipeline the service runs: the speech stages (through speaker resolution), then the
 * analysis stages, which plug in after the transcript as they are built. Until the analysis exists, a call
 * fails after a successful transcript with a reason that says so.
 */
export function createProductionPipeline(config: Config, dependencies: ProductionPipelineDependencies = {}): CallPipeline {
  const options = speechOptionsFromConfig(config);
  return async (job, run) => {
    const voice = planVoiceMatch(config, dependencies, job.userId);
    const speech = await runSpeechStages({ ...job, createdAt: Date.now() }, run, options, voice);
    if (voice.status !== 'DISABLED' && voice.status !== 'NO_PROFILE') dependencies.onVoiceMatch?.(job.callId, speech.voiceMatch);
    throw new StageFailure('unavailable', 'Call analysis is not installed in this version of Callscope; the call can be reprocessed after an update');
  };
}

export interface ProductionPipelineDependencies {
  /** Where users' voice profiles are read from (needed when voice profiles are enabled). */
  voiceProfiles?: Pick<VoiceProfileRepository, 'embeddingOf'>;
  /** Told the outcome of every run that tried to match a voice profile (for its log line and metric). */
  onVoiceMatch?: (callId: string, outcome: VoiceMatchOutcome) => void;
}

/** What voice matching can do for the user's call (see {@link VoiceMatchPlan}). */
export function planVoiceMatch(config: Pick<Config, 'SERVICE_VOICE_EMBEDDING_ENABLED'>, dependencies: ProductionPipelineDependencies, userId: string): VoiceMatchPlan {
  if (!config.SERVICE_VOICE_EMBEDDING_ENABLED || !dependencies.voiceProfiles) return { status: 'DISABLED' };
  try {
    const profile = dependencies.voiceProfiles.embeddingOf(userId);
    return profile ? { status: 'READY', profile } : { status: 'NO_PROFILE' };
  } catch {
    // A changed or lost key: the profile cannot be opened, and must be recorded again.
    return { status: 'FAILED', warning: 'Voice match skipped: the stored voice profile could not be read; record it again' };
  }
}
