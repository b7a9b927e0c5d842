import { randomUUID } from 'node:crypto';
import type { Config } from '../config/configSchema.js';
import { effectiveConcurrency, effectiveDiarizationThreads } from '../config/effectiveConcurrency.js';
import { analysisTimeZoneOf } from '../config/loadConfig.js';
import type { Transcript } from '../domain/transcripts/transcriptSchema.js';
import type { VoiceProfileRepository } from '../domain/voiceProfiles/VoiceProfileRepository.js';
import { isConsentCurrent, outdatedConsentWarning } from '../domain/voiceProfiles/voiceConsent.js';
import { alignWordsToSpeakers } from '../pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio, type CleanedAudio } from '../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio, type DiarizeAudioOptions } from '../pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../pipeline/normalization/buildTranscript.js';
import { resolveSpeakers, type VoiceMatchOutcome } from '../pipeline/speakers/resolveSpeakers.js';
import type { Diarization, Transcription } from '../pipeline/speechTypes.js';
import { analyseCall, type ActionItemDraft, type AnalysedCall } from '../pipeline/analysis/analyseCall.js';
import type { Analyser, AnalysisInput } from '../pipeline/analysis/Analyser.js';
import { selectAnalyser } from '../pipeline/analysis/selectAnalyser.js';
import {
  transcribeWith, transcriptionSettingsFromConfig, type TranscriptionConfig, type TranscriptionSettings,
} from '../pipeline/transcription/transcriptionOptionsFromConfig.js';
import type { WhisperServerProcess } from '../pipeline/transcription/WhisperServerProcess.js';
import { transcriptionPrompt, vocabularyTerms } from '../pipeline/transcription/transcriptionPrompt.js';
import { matchCallVoices, type CallVoiceMatchOptions, type ProfileVoice } from '../pipeline/voice/matchCallVoices.js';
import { redactKindsOf } from '../pipeline/redaction/redactionKinds.js';
import { callAudioFiles, noRedaction, redactTranscription, type RedactionSettings } from '../pipeline/redaction/redactTranscription.js';
import type { TranscriptRedaction } from '../domain/transcripts/transcriptRedactionSchema.js';
import type { CallPipeline, PipelineJob, PipelineResult, PipelineRun } from './CallPipeline.js';
import type { StageDefinition } from './CallRun.js';
import type { CallbackTranscription } from './callbackTranscription.js';

/**
 * The stages of the production pipeline, in order, with their share of a run's progress
 * (on CPU, transcription dominates: clean-up ~50×, diarization ~45× real time, whisper slower).
 */
export const productionStages = {
  cleanup: { name: 'cleanup', phase: 'TRANSCRIBING', weight: 0.05 },
  diarization: { name: 'diarization', phase: 'TRANSCRIBING', weight: 0.1 },
  // A transcription server's 5xx or network hiccup is retried once (spec); whisper.cpp here fails only for good reasons.
  transcription: { name: 'transcription', phase: 'TRANSCRIBING', weight: 0.6, transientRetries: 1 },
  alignment: { name: 'alignment', phase: 'TRANSCRIBING', weight: 0.02 },
  voiceMatch: { name: 'voiceMatch', phase: 'TRANSCRIBING', weight: 0.02 },
  speakerResolution: { name: 'speakerResolution', phase: 'TRANSCRIBING', weight: 0.01 },
  // A model runtime's hiccup (e.g. a context that could not be allocated) is retried once.
  analysis: { name: 'analysis', phase: 'ANALYZING', weight: 0.18, transientRetries: 1 },
  actionItems: { name: 'actionItems', phase: 'ANALYZING', weight: 0.01 },
} as const satisfies Record<string, StageDefinition>;

/** What the speech stages need besides the job: limits, model files, engine settings. */
export interface SpeechOptions {
  maxDurationSeconds: number;
  diarization: DiarizeAudioOptions;
  transcription: TranscriptionSettings;
  voiceMatch: CallVoiceMatchOptions;
  /** Callback mode's submission and resumption (required with `transcription.provider` `callback`). */
  callback?: CallbackTranscription;
  /** The admin's terms (`TRANSCRIPTION_VOCABULARY`), sent to the transcriber with the call's names. Defaults to none. */
  vocabulary?: readonly string[];
  /** Local redaction right after transcription (`REDACT`). Defaults to none. */
  redaction?: RedactionSettings;
}

/**
 * The speech stages' options as the configuration sets them.
 * @param callsAtOnce calls processed at the same time, which share the cores (the service's
 *   concurrency; the command line's one call by default)
 */
export function speechOptionsFromConfig(
  config: Pick<Config, 'MAX_AUDIO_DURATION_SECONDS' | 'SEGMENTATION_MODEL' | 'EMBEDDING_MODEL' | 'DIARIZATION_THREADS'
    | 'SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD' | 'SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD'> & TranscriptionConfig
    & Partial<Pick<Config, 'TRANSCRIPTION_VOCABULARY' | 'REDACT'>>,
  callsAtOnce = 1,
): SpeechOptions {
  const threads = effectiveDiarizationThreads(config.DIARIZATION_THREADS, callsAtOnce);
  return {
    vocabulary: vocabularyTerms(config.TRANSCRIPTION_VOCABULARY),
    // The file `callscope process` was given is left as it is; the service tones its own copies.
    redaction: { kinds: redactKindsOf(config.REDACT), toneAudio: false },
    maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS,
    diarization: { segmentationModel: config.SEGMENTATION_MODEL, embeddingModel: config.EMBEDDING_MODEL, threads },
    transcription: transcriptionSettingsFromConfig(config),
    voiceMatch: {
      embeddingModel: config.EMBEDDING_MODEL,
      thresholds: { high: config.SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD, medium: config.SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD },
      threads,
    },
  };
}

/** Local transcription on the persistent whisper-server, when there is one. */
function withWhisperServer(options: SpeechOptions, server: WhisperServerProcess | undefined): SpeechOptions {
  if (!server || options.transcription.provider !== 'local') return options;
  return { ...options, transcription: { provider: 'local', local: { ...options.transcription.local, server } } };
}

/**
 * What voice matching can do in a run, decided before it starts: compare with the user's
 * profile (`READY`), or report why not (`DISABLED`, `NO_PROFILE` also for a profile stamped with
 * another consent version than `SERVICE_VOICE_CONSENT_VERSION`, or `FAILED` when the stored
 * profile cannot be read).
 */
export type VoiceMatchPlan =
  | { status: 'READY'; profile: ProfileVoice }
  | { status: 'DISABLED' | 'NO_PROFILE' }
  // A stored profile whose consent version is not the current one: the call is processed as without one.
  | { status: 'NO_PROFILE'; warning: string }
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
  job: Pick<PipelineJob, 'callId' | 'audioPath' | 'workDir' | 'metadata' | 'userDisplayName'> & Partial<Pick<PipelineJob, 'audioFormat'>> & { createdAt: number },
  run: PipelineRun,
  options: SpeechOptions,
  voice: VoiceMatchPlan = { status: 'DISABLED' },
): Promise<SpeechResult> {
  const { cleaned, diarization, transcription, redaction } = await transcribedSpeech(job, run, options);
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
  return { cleaned, diarization, transcription, transcript: redaction ? { ...transcript, redaction } : transcript, voiceMatch };
}

/**
 * Clean-up, diarization and transcription; in callback mode, the transcription stage submits
 * the job and ends the run (AwaitingCallback), and the run resumed after the callback reads what
 * the first one kept and the provider sent instead of running the three again.
 */
async function transcribedSpeech(
  job: Pick<PipelineJob, 'callId' | 'audioPath' | 'workDir' | 'metadata' | 'userDisplayName'> & Partial<Pick<PipelineJob, 'audioFormat'>>,
  run: PipelineRun,
  options: SpeechOptions,
): Promise<Pick<SpeechResult, 'cleaned' | 'diarization' | 'transcription'> & { redaction?: TranscriptRedaction }> {
  const callback = options.transcription.provider === 'callback' ? options.callback : undefined;
  if (options.transcription.provider === 'callback' && !callback) throw new Error('callback transcription needs the pipeline\'s CallbackTranscription');
  const resumed = callback ? await callback.resumed(job.callId) : undefined;
  if (resumed) {
    // The provider's words are redacted as a local transcription's are, before anything reads them.
    const redacted = await run.stage(productionStages.transcription, (context) => redactTranscription(
      resumed.transcription, options.redaction ?? noRedaction, { files: callAudioFiles(job, resumed.cleaned), tempDir: job.workDir }, context.signal));
    return { cleaned: resumed.cleaned, diarization: resumed.diarization, ...redacted };
  }
  const cleaned = await run.stage(productionStages.cleanup, (context) => cleanAudio({
    sourcePath: job.audioPath, outputDir: job.workDir, maxDurationSeconds: options.maxDurationSeconds,
  }, context));
  const diarization = await run.stage(productionStages.diarization, (context) => diarizeAudio(cleaned, options.diarization, context));
  // The names said in the call, spelt as the user and the metadata spell them ("hotwords").
  const prompt = transcriptionPrompt({ userDisplayName: job.userDisplayName, contactName: job.metadata.contactName, vocabulary: options.vocabulary ?? [] });
  // Redaction right after transcription, in the same stage: nothing sees the words before it.
  const redacted = await run.stage(productionStages.transcription, async (context) => redactTranscription(await (callback
    ? callback.submit(job.callId, cleaned, diarization, context, prompt)
    : transcribeWith(options.transcription, { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds, prompt }, job.workDir, context)),
  options.redaction ?? noRedaction, { files: callAudioFiles(job, cleaned), tempDir: job.workDir }, context.signal));
  return { cleaned, diarization, ...redacted };
}

/**
 * The pipeline the service runs: the speech stages (through speaker resolution), then the
 * analysis (either analyser, grounded) and the action items. Extraction of the action items is
 * optional: when it fails the call still completes with its transcript and analysis.
 */
export function createProductionPipeline(config: Config, dependencies: ProductionPipelineDependencies = {}): CallPipeline {
  const analyser = dependencies.analyser ?? selectAnalyser(config);
  const timeZone = analysisTimeZoneOf(config);
  return async (job, run) => {
    // Per run: the voice-match thresholds can be changed on the admin page while the service runs.
    const options = { ...withWhisperServer(speechOptionsFromConfig(config, effectiveConcurrency(config.WORKER_CONCURRENCY)), dependencies.whisperServer), ...(dependencies.callback ? { callback: dependencies.callback } : {}), redaction: { kinds: redactKindsOf(config.REDACT), toneAudio: true } };
    const voice = await planVoiceMatch(config, dependencies, job.userId);
    const speech = await runSpeechStages({ ...job, createdAt: Date.now() }, run, options, voice);
    if (voice.status !== 'DISABLED' && voice.status !== 'NO_PROFILE') dependencies.onVoiceMatch?.(job.callId, speech.voiceMatch);
    const analysed = await runAnalysisStages({ transcript: speech.transcript, metadata: job.metadata, recordedAt: job.recordedAt, timeZone }, run, analyser);
    return {
      transcript: speech.transcript,
      analysis: analysed.analysis,
      analysisProducer: { ...analysed.producer },
      actionItems: analysed.actionItemRows,
      durationSeconds: Math.round(speech.cleaned.durationSeconds),
    };
  };
}

export interface AnalysisStagesResult extends AnalysedCall {
  /** The action items as rows to store (empty when extraction failed; the run then carries a warning). */
  actionItemRows: PipelineResult['actionItems'];
}

/**
 * Transcript → grounded analysis and the action-item rows to store: the `analysis` stage (the
 * call's status becomes ANALYZING) and the optional `actionItems` stage. Used by the service's
 * pipeline and by `callscope process` / `analyze-transcript`.
 */
export async function runAnalysisStages(input: AnalysisInput, run: PipelineRun, analyser: Analyser): Promise<AnalysisStagesResult> {
  await run.enterPhase('ANALYZING');
  const analysed = await run.stage(productionStages.analysis, (context) => analyseCall(input, analyser, context));
  const rows = await run.optionalStage(
    productionStages.actionItems,
    async () => actionItemRows(analysed.actionItems, Date.now()),
    [],
    'Action items could not be extracted from this call; the transcript and analysis are complete',
  );
  return { ...analysed, actionItemRows: rows };
}

/** Rows for the call's action items: new ids, PENDING, in the order the analysis lists them. */
function actionItemRows(drafts: readonly ActionItemDraft[], now: number): PipelineResult['actionItems'] {
  return drafts.map((draft, index) => ({
    id: randomUUID(),
    title: draft.title,
    description: draft.description,
    dueDate: draft.dueDate,
    status: 'PENDING' as const,
    sourceText: draft.sourceText,
    ownerSpeakerId: draft.ownerSpeakerId,
    ownerSpeakerLabel: draft.ownerSpeakerLabel,
    ownerDisplayName: draft.ownerDisplayName,
    ownerRole: draft.ownerRole,
    sourceSegmentIds: JSON.stringify(draft.sourceSegmentIds),
    intent: draft.intent,
    intentMetadata: Object.keys(draft.intentMetadata).length > 0 ? JSON.stringify(draft.intentMetadata) : null,
    // One millisecond apart, so "newest first" keeps the analysis's order stable.
    createdAt: now + index,
    updatedAt: now + index,
  }));
}

export interface ProductionPipelineDependencies {
  /** Defaults to the analyser the configuration selects ({@link selectAnalyser}). */
  analyser?: Analyser;
  /** The persistent whisper-server local transcription goes to. Defaults to none: whisper-cli per call. */
  whisperServer?: WhisperServerProcess;
  /** Callback mode's submission and resumption (`TRANSCRIPTION_PROVIDER=callback`). */
  callback?: CallbackTranscription;
  /** Where users' voice profiles are read from (needed when voice profiles are enabled). */
  voiceProfiles?: Pick<VoiceProfileRepository, 'find' | 'embeddingOf'>;
  /** Told the outcome of every run that tried to match a voice profile (for its log line and metric). */
  onVoiceMatch?: (callId: string, outcome: VoiceMatchOutcome) => void;
}

/** What voice matching can do for the user's call (see {@link VoiceMatchPlan}). */
export async function planVoiceMatch(
  config: Pick<Config, 'SERVICE_VOICE_EMBEDDING_ENABLED' | 'SERVICE_VOICE_CONSENT_VERSION'>,
  dependencies: ProductionPipelineDependencies,
  userId: string,
): Promise<VoiceMatchPlan> {
  if (!config.SERVICE_VOICE_EMBEDDING_ENABLED || !dependencies.voiceProfiles) return { status: 'DISABLED' };
  // Read per run: the consent version can be changed on the admin page while the service runs.
  const stored = await dependencies.voiceProfiles.find(userId);
  if (!stored) return { status: 'NO_PROFILE' };
  if (!isConsentCurrent(stored.consentVersion, config.SERVICE_VOICE_CONSENT_VERSION)) return { status: 'NO_PROFILE', warning: outdatedConsentWarning };
  try {
    const profile = await dependencies.voiceProfiles.embeddingOf(userId);
    return profile ? { status: 'READY', profile } : { status: 'NO_PROFILE' };
  } catch {
    // A changed or lost key: the profile cannot be opened, and must be recorded again.
    return { status: 'FAILED', warning: 'Voice match skipped: the stored voice profile could not be read; record it again' };
  }
}
