import { speakerEncoderIdentity, speakerEncoderKindOf } from '../diarization/models/SpeakerEncoder.js';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Transcript } from '../../domain/transcripts/transcriptSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import { assertModelUsable } from '../../infrastructure/models/assertModelUsable.js';
import type { VoiceMatchOutcome } from '../speakers/resolveSpeakers.js';
import type { SpeakerTurn } from '../speechTypes.js';
import type { StageContext } from '../StageContext.js';
import type { TimeSpan } from './embedVoices.js';
import { matchVoice, type VoiceMatchThresholds } from './matchVoice.js';

/** A stored voice profile's embedding, decrypted for this run only. */
export interface ProfileVoice {
  vector: Float32Array;
  /** File name of the model that produced it. */
  model: string;
}

export interface CallVoiceMatchInput {
  /** The cleaned 16 kHz mono recording. */
  monoPath: string;
  turns: readonly SpeakerTurn[];
  /** The diarized transcript: its speakers (`spk_N` ↔ diarization's `SPEAKER_NN`) are the ones compared. */
  transcript: Pick<Transcript, 'speakers'>;
  profile: ProfileVoice;
}

export interface CallVoiceMatchOptions {
  /** `EMBEDDING_MODEL` as configured: absolute, or relative to the install folder. */
  embeddingModel: string;
  thresholds: VoiceMatchThresholds;
  /** CPU threads of the model's runs, as the call's diarization has them (the worker thread's session is then the diarization's); default 1. */
  threads?: number;
}

/** Shortest span of one voice alone worth embedding, seconds: shorter ones are mostly edges. */
const MIN_SPAN_SECONDS = 0.5;

/**
 * The voice-match stage: embeds each transcript speaker from the stretches where they speak
 * alone (on the worker pool) and compares them with the user's profile
 * ({@link matchVoice}). Anything that keeps the comparison from being made (no model
 * installed, a profile from another model) is a soft `FAILED` with a warning; errors of the
 * model itself propagate, and the caller treats them as soft failures too.
 */
export async function matchCallVoices(input: CallVoiceMatchInput, options: CallVoiceMatchOptions, context: StageContext): Promise<VoiceMatchOutcome> {
  const modelPath = resolveModelPath(options.embeddingModel);
  if (!existsSync(modelPath)) {
    return { status: 'FAILED', warning: 'Voice match skipped: no speaker-embedding model is installed' };
  }
  await assertModelUsable(modelPath);
  if (input.profile.model !== speakerEncoderIdentity(basename(modelPath), await speakerEncoderKindOf(modelPath))) {
    return { status: 'FAILED', warning: 'Voice match skipped: the voice profile was recorded with another speaker-embedding model; record it again' };
  }
  const spans = soloSpans(input.turns);
  const voices = Object.fromEntries(input.transcript.speakers.map((speaker) => [speaker.speakerId, spans.get(speaker.sourceSpeakerId) ?? []]));
  context.reportProgress(0);
  const embedded = await context.runInWorker('embedVoices', { audioPath: input.monoPath, embeddingModelPath: modelPath, voices, threads: options.threads });
  context.signal.throwIfAborted();
  context.reportProgress(1);
  const speakers = Object.entries(embedded.voices).map(([speakerId, voice]) => ({ speakerId, vector: voice.vector }));
  if (speakers.some((speaker) => speaker.vector.length !== input.profile.vector.length)) {
    return { status: 'FAILED', warning: 'Voice match skipped: the voice profile does not fit the installed speaker-embedding model; record it again' };
  }
  return matchVoice(input.profile.vector, speakers, options.thresholds);
}

/**
 * Per diarization speaker, the spans in which they are the only one talking, longest first
 * (the cleanest audio of a voice), each at least {@link MIN_SPAN_SECONDS}. A sweep over the
 * turns' boundaries: O(n log n) in the number of turns.
 */
export function soloSpans(turns: readonly SpeakerTurn[]): Map<string, TimeSpan[]> {
  const boundaries: { at: number; speaker: string; delta: 1 | -1 }[] = [];
  for (const turn of turns) {
    if (turn.endSeconds <= turn.startSeconds) continue;
    boundaries.push({ at: turn.startSeconds, speaker: turn.speaker, delta: 1 }, { at: turn.endSeconds, speaker: turn.speaker, delta: -1 });
  }
  // Ends before starts at the same instant, so touching turns do not count as overlapping.
  boundaries.sort((a, b) => a.at - b.at || a.delta - b.delta);
  const active = new Map<string, number>();
  const spans = new Map<string, TimeSpan[]>();
  let previous = 0;
  for (const boundary of boundaries) {
    const speaking = [...active.keys()];
    if (speaking.length === 1 && boundary.at > previous) {
      const list = spans.get(speaking[0]!) ?? [];
      const last = list.at(-1);
      if (last && last.endSeconds === previous) last.endSeconds = boundary.at;
      else list.push({ startSeconds: previous, endSeconds: boundary.at });
      spans.set(speaking[0]!, list);
    }
    const count = (active.get(boundary.speaker) ?? 0) + boundary.delta;
    if (count > 0) active.set(boundary.speaker, count);
    else active.delete(boundary.speaker);
    previous = boundary.at;
  }
  for (const [speaker, list] of spans) {
    spans.set(speaker, list
      .filter((span) => span.endSeconds - span.startSeconds >= MIN_SPAN_SECONDS)
      .sort((a, b) => (b.endSeconds - b.startSeconds) - (a.endSeconds - a.startSeconds)));
  }
  return spans;
}
