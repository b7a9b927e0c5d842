import type { Diarization, SpeakerTurn } from '../speechTypes.js';
import { defaultClusteringThresholds, defaultDiarizationOptions, type DiarizationOptions } from './diarizationOptions.js';
import { readWavBlocks, readWavFormat, readWavInfo, type WavBeingWritten } from './inference/readWavBlocks.js';
import { segmentWindows } from './inference/segmentWindows.js';
import { loadSegmentationModel, segmentationGeometry } from './models/SegmentationModel.js';
import { loadSpeakerEncoder } from './models/SpeakerEncoder.js';
import { clusterRunsByEmbeddings } from './speakers/clusterRunsByEmbeddings.js';
import { clusterSpeakersByEmbeddings } from './speakers/clusterSpeakersByEmbeddings.js';
import { diarizeByChannel } from './speakers/diarizeByChannel.js';
import { foldExtraSpeakers } from './speakers/foldExtraSpeakers.js';
import { linkSpeakersAcrossWindows } from './speakers/linkSpeakersAcrossWindows.js';
import { mergeSpeakersByVoice, statisticsBySpeaker } from './speakers/mergeSpeakersByVoice.js';
import { RecordingCepstra } from './speakers/RecordingCepstra.js';
import { resegmentByVoice } from './speakers/resegmentByVoice.js';
import { SilenceFinder, trimTurnsOutOfSilence, type SilentStretch } from './speakers/silenceGate.js';
import { collectVoiceStatistics, soloStretches, type VoiceStatistics } from './speakers/voiceStatistics.js';
import type { SpeakerRun } from './speakers/TurnBuilder.js';

// Runs on a worker thread (the `diarize` task of infrastructure/workers/workerTasks.ts).

export interface DiarizeRecordingInput {
  /** 16 kHz mono 16-bit WAV: clean-up's `cleaned.wav`. */
  monoPath: string;
  /**
   * Set while clean-up's ffmpeg is still writing `monoPath` (the command line diarizes while it
   * cleans): the segmentation reads the samples as they are written, in the same blocks as from
   * the finished file, so the result is the same. `expectedSeconds` (the container's claim)
   * sizes the recording's cepstra. In-process only: a worker thread cannot be handed a promise.
   */
  monoBeingWritten?: WavBeingWritten & { expectedSeconds?: number };
  /** Clean-up's `stereo.wav` when the source had 2+ channels. */
  stereoPath?: string;
  /** Share of active frames per channel of `stereoPath` (clean-up's `levels.channelActiveFractions`). */
  channelActiveFractions?: number[];
  /** Absolute path of the pyannote segmentation-3.0 ONNX model. */
  segmentationModelPath: string;
  /** Absolute path of a speaker-embedding ONNX model; without one, speakers are linked across windows. */
  embeddingModelPath?: string;
  /** CPU threads each model's run may use: 1 (the default) where calls run side by side, more when this call has cores to itself. */
  threads?: number;
  options?: DiarizationOptions;
}

/** The pipeline's stages, reported to the hook as each ends. */
export type DiarizationStage = 'channels' | 'segmentation' | 'embeddings' | 'voices' | 'speakers';

/** Told after each stage, with a short plain-data detail (counts, shares): for timing and logs. */
export type DiarizationHook = (stage: DiarizationStage, detail: Record<string, number | string | boolean>) => void;

/**
 * A channel must be active (above -45 dBFS) in at least this share of 30 ms frames for a stereo
 * file to be considered for per-channel diarization: 2 % is 36 s of a 30-minute call.
 */
export const MIN_CHANNEL_ACTIVE_FRACTION = 0.02;

/**
 * Who spoke when. Stage order, as pyannote's pipeline: (1) a stereo file whose channels carry
 * different parties is diarized by channel and nothing else runs; otherwise (2) sliding-window
 * segmentation of the mono file, then (3a) with the GE2E encoder, local speakers linked across
 * windows, each provisional speaker's solo speech embedded once and clustered, and the turns
 * re-segmented by the found voices; (3b) with an fbank embedding model, embeddings per (window,
 * local speaker) clustered into call-level speakers; or (3c) without one, local speakers linked
 * across overlapping windows, then joined and re-segmented by voice; then turns, trimmed out of
 * silence.
 */
export async function diarizeRecording(input: DiarizeRecordingInput, hook: DiarizationHook = () => undefined): Promise<Diarization> {
  const options = { ...defaultDiarizationOptions, ...input.options };
  const turnOptions = { maxGapSeconds: options.maxGapSeconds, minTurnSeconds: options.minTurnSeconds };

  const fractions = input.channelActiveFractions ?? [];
  if (input.stereoPath && fractions.length >= 2 && fractions.slice(0, 2).every((fraction) => fraction >= MIN_CHANNEL_ACTIVE_FRACTION)) {
    const channels = await diarizeByChannel(input.stereoPath, turnOptions);
    hook('channels', { separated: channels.separated, oneSidedShare: channels.oneSidedShare });
    if (channels.separated) {
      // Left is SPEAKER_00 and right SPEAKER_01 whoever speaks first, as the stereo convention says.
      return diarization(channels.runs, 'channel', 'callscope', 'stereo-channels', (speaker) => speaker);
    }
  }

  const following = input.monoBeingWritten;
  // A finished file states its length; one being written, only its format (and the container's claim).
  const finished = following ? undefined : await readWavInfo(input.monoPath);
  const { sampleRate, channelCount } = finished ?? await readWavFormat(input.monoPath, following);
  if (sampleRate !== segmentationGeometry.sampleRate || channelCount !== 1) {
    throw new Error(`diarization needs 16 kHz mono audio, got ${sampleRate} Hz × ${channelCount} channels`);
  }
  const expectedSamples = finished?.totalSamples ?? Math.round((following?.expectedSeconds ?? 0) * sampleRate);
  const segmentation = await loadSegmentationModel(input.segmentationModelPath, input.threads);
  const embedding = input.embeddingModelPath ? await loadSpeakerEncoder(input.embeddingModelPath, input.threads) : undefined;
  let segmented = 0;
  // The silence gate's search rides on the segmentation's read of the audio, and so does the
  // collection of the recording's cepstra for the paths that compare voices by them (all but an
  // fbank model's).
  const silence = new SilenceFinder(segmentationGeometry.sampleRate, SILENCE_GATE);
  const voicesByCepstra = embedding?.kind !== 'fbank';
  const recording = new RecordingCepstra(expectedSamples);
  const mono = monoRecording(input.monoPath, following);
  const { totalSamples } = mono;
  const windows = (async function* countWindows() {
    for await (const window of segmentWindows(segmentation, mono.blocks((samples) => {
      silence.add(samples);
      if (voicesByCepstra) recording.add(samples);
    }), options)) {
      segmented += 1;
      yield window;
    }
    hook('segmentation', { windows: segmented, stepSeconds: options.stepSeconds });
  })();

  // The silence gate's stretches, found once the segmentation has read the whole recording (each
  // path below asks only after that).
  let silences: SilentStretch[] | undefined;
  const silentStretches = () => (silences ??= silence.finish());

  let runs: SpeakerRun[];
  if (embedding?.kind === 'ge2e') {
    const linked = await linkSpeakersAcrossWindows(windows, totalSamples, {
      ...turnOptions,
      minLinkAgreement: options.minLinkAgreement,
      minNewSpeakerSeconds: options.minNewSpeakerSeconds,
    });
    const clustered = await clusterRunsByEmbeddings(embedding, monoSamples(input.monoPath), linked, {
      threshold: options.clusteringThreshold ?? defaultClusteringThresholds[embedding.kind],
      minSpeakerSeconds: options.minSpeakerSeconds,
      speakerCount: options.speakerCount,
      minSpeakers: options.minSpeakers,
      maxSpeakers: options.maxSpeakers,
      silences: silentStretches(),
    });
    // The pieces place a change of voice inside a turn only to a piece (up to 3 s) where no
    // silence marks it: re-segmentation by the found speakers' cepstral voices places it to 0.25 s
    // (spliced pair of real voices in 1–2 s turns: DER 27.2 → 16.0 %; no LibriSpeech tuning
    // conversation changed).
    runs = mergeTouchingRuns(resegmentVoices(recording.finish(), mergeTouchingRuns(clustered.runs, options.maxGapSeconds), options), options.maxGapSeconds);
    hook('embeddings', { embeddings: clustered.pieces.length, linked: new Set(linked.map((run) => run.speaker)).size });
  } else if (embedding) {
    runs = await clusterSpeakersByEmbeddings(embedding, windows, totalSamples, {
      ...turnOptions,
      clusteringThreshold: options.clusteringThreshold ?? defaultClusteringThresholds[embedding.kind],
      minEmbeddingSeconds: options.minEmbeddingSeconds,
      speakerCount: options.speakerCount,
      minSpeakers: options.minSpeakers,
      maxSpeakers: options.maxSpeakers,
    }, (embeddings) => hook('embeddings', { embeddings }));
  } else {
    runs = await linkSpeakersAcrossWindows(windows, totalSamples, {
      ...turnOptions,
      minLinkAgreement: options.minLinkAgreement,
      minNewSpeakerSeconds: options.minNewSpeakerSeconds,
    });
    const linked = new Set(runs.map((run) => run.speaker)).size;
    runs = mergeTouchingRuns(joinVoices(recording.finish(), runs, options), options.maxGapSeconds);
    hook('voices', { linked, joined: new Set(runs.map((run) => run.speaker)).size });
    // A count the voices could not reach (speakers with too little solo speech to compare): fold the rest.
    const mostSpeakers = options.speakerCount ?? options.maxSpeakers;
    if (mostSpeakers !== undefined) runs = mergeTouchingRuns(foldExtraSpeakers(runs, mostSpeakers), options.maxGapSeconds);
  }
  runs = trimTurnsOutOfSilence(runs, silentStretches(), options.minTurnSeconds, WORD_DECAY_SECONDS);
  const result = embedding
    ? diarization(runs, 'embedding-clustering', 'pyannote-onnx', `${segmentation.fileName} + ${embedding.fileName}`)
    : diarization(runs, 'window-linking', 'pyannote-onnx', segmentation.fileName);
  hook('speakers', { speakers: result.speakerCount, turns: result.turns.length });
  return result;
}

/**
 * The mono file as the segmentation reads it: its samples block by block (`onBlock` sees each
 * before it is yielded; read once), and its length in samples, known once they all were.
 */
function monoRecording(path: string, beingWritten?: WavBeingWritten): { blocks: (onBlock: (samples: Float32Array) => void) => AsyncGenerator<Float32Array>; totalSamples: Promise<number> } {
  let settleLength: (samples: number) => void = () => undefined;
  const totalSamples = new Promise<number>((resolve) => { settleLength = resolve; });
  async function* blocks(onBlock: (samples: Float32Array) => void): AsyncGenerator<Float32Array> {
    let samplesRead = 0;
    for await (const block of readWavBlocks(path, beingWritten)) {
      const samples = block.channels[0]!;
      onBlock(samples);
      samplesRead += samples.length;
      yield samples;
    }
    settleLength(samplesRead);
  }
  return { blocks, totalSamples };
}

/** Stretches shorter than this after trimming say little about a voice, seconds. */
const MIN_SOLO_STRETCH_SECONDS = 0.3;
/** Trimmed from both ends of a solo stretch: turn edges are uncertain to a frame or two, seconds. */
const SOLO_STRETCH_MARGIN_SECONDS = 0.1;
/** Added to each cepstral variance: about 1 % of a voiced dimension's. */
const CEPSTRAL_VARIANCE_FLOOR = 0.01;
/** Re-segmentation scores speech in blocks of 0.25 s (25 cepstral frames). */
const RESEGMENT_BLOCK_FRAMES = 25;
/** Re-segmentation moves no part shorter than this to another voice, seconds. */
const RESEGMENT_MIN_PART_SECONDS = 0.5;
/**
 * Rounds of re-segmentation, each with the voices re-estimated from the last one's turns: a voice
 * first modelled from a mixed turn gets cleaner each round (on the evaluation set the figures
 * settle after the third).
 */
const RESEGMENT_ROUNDS = 3;

/**
 * The voice step of window linking: each turn's voice statistics (solo stretches only);
 * speakers joined by voice; then rounds of re-segmentation, each with the voices as the last
 * round left them.
 */
function joinVoices(recording: RecordingCepstra, runs: SpeakerRun[], options: typeof defaultDiarizationOptions & DiarizationOptions): SpeakerRun[] {
  if (new Set(runs.map((run) => run.speaker)).size < 2) return runs;
  const stretches = soloStretches(runs, SOLO_STRETCH_MARGIN_SECONDS, MIN_SOLO_STRETCH_SECONDS);
  const statistics = collectVoiceStatistics(recording, stretches);
  const joined = mergeSpeakersByVoice(runs, statistics, {
    penaltyWeight: options.voicePenaltyWeight,
    minVoiceSeconds: options.minVoiceSeconds,
    maxSharedSeconds: options.maxSharedSeconds,
    varianceFloor: CEPSTRAL_VARIANCE_FLOOR,
    ...(options.speakerCount !== undefined ? { speakerCount: options.speakerCount } : {}),
    ...(options.minSpeakers !== undefined ? { minSpeakers: options.minSpeakers } : {}),
    ...(options.maxSpeakers !== undefined ? { maxSpeakers: options.maxSpeakers } : {}),
  });
  if (!Number.isFinite(options.voiceSwitchPenalty)) return joined;
  // Runs keep their indices through the join, so the runs' statistics give the joined voices.
  return resegmentRounds(recording, joined, statistics, options);
}

/** Rounds of re-segmentation of `runs` by their speakers' cepstral voices (each run's solo statistics in `statistics`, by run index). */
function resegmentRounds(recording: RecordingCepstra, runs: SpeakerRun[], statistics: ReadonlyMap<number, VoiceStatistics>, options: typeof defaultDiarizationOptions & DiarizationOptions): SpeakerRun[] {
  let current = { runs, voices: statisticsBySpeaker(runs.map((run) => run.speaker), statistics) };
  for (let round = 0; round < RESEGMENT_ROUNDS; round++) {
    // Only voices with enough speech are modelled.
    const modelled = new Map([...current.voices].filter(([, voice]) => voice.seconds >= options.minVoiceSeconds));
    current = resegmentByVoice(recording, current.runs, modelled, {
      blockFrames: RESEGMENT_BLOCK_FRAMES, switchPenalty: options.voiceSwitchPenalty, minPartSeconds: RESEGMENT_MIN_PART_SECONDS,
      varianceFloor: CEPSTRAL_VARIANCE_FLOOR, marginSeconds: SOLO_STRETCH_MARGIN_SECONDS, minStretchSeconds: MIN_SOLO_STRETCH_SECONDS,
      penaltyWeight: options.voicePenaltyWeight,
    });
  }
  return current.runs;
}

/** The embedding path's runs re-segmented by cepstral voices, as the voice step of window linking does after its join. */
function resegmentVoices(recording: RecordingCepstra, runs: SpeakerRun[], options: typeof defaultDiarizationOptions & DiarizationOptions): SpeakerRun[] {
  if (new Set(runs.map((run) => run.speaker)).size < 2) return runs;
  const stretches = soloStretches(runs, SOLO_STRETCH_MARGIN_SECONDS, MIN_SOLO_STRETCH_SECONDS);
  const statistics = collectVoiceStatistics(recording, stretches);
  return resegmentRounds(recording, runs, statistics, options);
}

/**
 * The silence gate (see silenceGate.ts and docs/architecture.md#diarization): 10 ms frames,
 * stretches of 0.1 s or more that are silent: below −60 dBFS RMS (no signal), or within 6 dB of
 * the recording's noise floor (line hiss, room tone) unless that is less than 25 dB below its
 * speech level (a noisy line, where speech's quiet parts sit near the floor).
 */
const SILENCE_GATE = { frameSeconds: 0.01, thresholdDbfs: -60, aboveNoiseFloorDb: 6, belowSpeechDb: 25, minSeconds: 0.1 };
/**
 * A turn that reaches at most this far into a stretch at the noise floor keeps its edge: a
 * word's last sounds fade into the floor for up to about 0.1 s, and human references count
 * them as speech. Seconds.
 */
const WORD_DECAY_SECONDS = 0.1;

async function* monoSamples(path: string): AsyncGenerator<{ startSample: number; samples: Float32Array }> {
  for await (const block of readWavBlocks(path)) yield { startSample: block.startSample, samples: block.channels[0]! };
}

/**
 * The output type: `SPEAKER_00`, `SPEAKER_01`, … by order of first appearance (or by the
 * given numbering), turns sorted by start.
 */
function diarization(
  runs: readonly SpeakerRun[],
  method: Diarization['method'],
  provider: string,
  model: string,
  number?: (speaker: number) => number,
): Diarization {
  const sorted = [...runs].sort((a, b) => a.startSeconds - b.startSeconds || a.speaker - b.speaker);
  const order = new Map<number, number>();
  for (const run of sorted) if (!order.has(run.speaker)) order.set(run.speaker, number ? number(run.speaker) : order.size);
  const turns: SpeakerTurn[] = sorted.map((run) => ({
    speaker: `SPEAKER_${String(order.get(run.speaker)!).padStart(2, '0')}`,
    startSeconds: round(run.startSeconds),
    endSeconds: round(run.endSeconds),
  }));
  return { turns, speakerCount: order.size, method, provider, model };
}

/** Joins a speaker's runs that overlap or lie at most `maxGapSeconds` apart (after speakers were folded together). */
function mergeTouchingRuns(runs: readonly SpeakerRun[], maxGapSeconds: number): SpeakerRun[] {
  const merged: SpeakerRun[] = [];
  const last = new Map<number, SpeakerRun>();
  for (const run of [...runs].sort((a, b) => a.startSeconds - b.startSeconds)) {
    const previous = last.get(run.speaker);
    if (previous && run.startSeconds - previous.endSeconds <= maxGapSeconds) {
      previous.endSeconds = Math.max(previous.endSeconds, run.endSeconds);
      continue;
    }
    const copy = { ...run };
    merged.push(copy);
    last.set(run.speaker, copy);
  }
  return merged;
}

/** Milliseconds are plenty (frames are 17 or 20 ms). */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
