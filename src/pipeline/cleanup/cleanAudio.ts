import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StageContext } from '../StageContext.js';
import { cleanupFailures, redactedCause } from './cleanupFailures.js';
import { decodeAudio, type DecodeOutcome } from './decodeAudio.js';
import { resolveFfmpegBinaries } from './ffmpegBinaries.js';
import type { LevelMeasurement } from './measureLevels.js';
import { probeAudio } from './probeAudio.js';

export interface CleanAudioInput {
  /** The uploaded recording, any accepted format (m4a, mp3, wav, aac, ogg). */
  sourcePath: string;
  /** Folder for the stage's files (`cleaned.wav`, `stereo.wav`); created if missing. */
  outputDir: string;
  /** Longest recording accepted, in seconds; longer ones fail without being decoded. */
  maxDurationSeconds: number;
  /**
   * Told as ffmpeg starts writing `cleaned.wav` of a one-channel source, so a later stage may
   * read it while it is written (`callscope diarize` segments a call while its loudness is
   * normalised). Not for sources of two or more channels: the levels measured after the decode
   * decide what the diarization does with those.
   */
  whileDecodingMono?: (mono: MonoBeingDecoded) => void;
}

/** `cleaned.wav` while ffmpeg writes it. */
export interface MonoBeingDecoded {
  monoPath: string;
  /** The length the container states, in seconds, when it states one. */
  expectedSeconds?: number;
  /**
   * Settles (never rejects) once ffmpeg has exited, whatever became of it: the file is then as
   * complete as it will be. The stage may still fail after (a silent or too long recording).
   */
  written: Promise<void>;
}

export interface CleanedAudio {
  /** `<outputDir>/cleaned.wav`: 16 kHz mono s16le, high-passed and loudness-normalised; the later stages' input. */
  monoPath: string;
  /** `<outputDir>/stereo.wav` when the source has 2+ channels: its first two, kept apart (16 kHz s16le, high-passed, levels as recorded). */
  stereoPath?: string;
  /** Channels of the source's audio stream. */
  sourceChannels: number;
  /** Length of the decoded audio in seconds (not the container's claim). */
  durationSeconds: number;
  /**
   * Levels of the mono file, except `channels` and `channelActiveFractions`, which describe the
   * channels kept apart in `stereoPath` when there is one (call recorders often put each party
   * on its own channel: a near-zero entry means that side never spoke or was not recorded).
   */
  levels: LevelMeasurement;
}

/**
 * Below this share of active 30 ms frames (see `ACTIVITY_THRESHOLD_DBFS`), the cleaned
 * recording counts as silent: 0.5 % is 18 s of a 1-hour call.
 */
export const MIN_ACTIVE_FRACTION = 0.005;

/**
 * Below this integrated loudness of the source, in LUFS, the recording counts as silent too.
 * Single-pass loudnorm lifts a recording's quietest stretches by up to ~40 dB, so a recording
 * of nothing but line hiss (about -62 LUFS for white noise at -65 dBFS) comes out at speech
 * level; the source's own loudness still tells. Quiet real speech measures -40 to -50 LUFS.
 */
export const MIN_SOURCE_LOUDNESS_LUFS = -60;

/**
 * Lowest source sample rate decoded, in Hz. Phones and recorders record at 8 kHz or more (AAC's
 * lowest rate is 7.35 kHz), but a WAV header may state any rate, down to 1 Hz, and every sample
 * then becomes 16 000 of cleaned audio. ffmpeg reads WAV 2048 samples at a time, so at 1 Hz one
 * frame lasts 2048 s, and resampling that in one piece takes ffmpeg ~450 MB even with
 * decodeAudio's framing (3.7 GB without it, for a 1.2 KB file stating 10 minutes). From 4 kHz
 * up its peak is that of an ordinary recording (~65-70 MB).
 */
export const MIN_SOURCE_SAMPLE_RATE_HZ = 4000;

/**
 * The clean-up stage: any accepted recording → 16 kHz PCM for the later stages, plus its
 * levels. Recordings that cannot be processed (damaged, not audio, empty, silent, too long, at
 * an implausibly low sample rate) throw a `bad_input` StageFailure; on every failure the files
 * the stage wrote are removed.
 * ffmpeg and ffprobe run as child processes, so memory for decoding is theirs, not Node's.
 */
export async function cleanAudio(input: CleanAudioInput, context: StageContext): Promise<CleanedAudio> {
  const { sourcePath, outputDir, maxDurationSeconds } = input;
  const { ffmpegPath, ffprobePath } = resolveFfmpegBinaries();
  const monoPath = join(outputDir, 'cleaned.wav');
  const stereoCandidatePath = join(outputDir, 'stereo.wav');
  const removeOutputs = () => Promise.all([monoPath, stereoCandidatePath].map((path) => rm(path, { force: true })));

  context.signal.throwIfAborted();
  await mkdir(outputDir, { recursive: true });
  // A retry must not find the files of an earlier attempt (a stereo.wav for a mono source).
  await removeOutputs();

  try {
    const probed = await probeAudio(sourcePath, ffprobePath);
    context.signal.throwIfAborted();
    const stated = probed.containerDurationSeconds;
    if (stated !== undefined && stated > maxDurationSeconds) throw cleanupFailures.tooLong(stated, maxDurationSeconds);
    const { sampleRateHz } = probed;
    if (sampleRateHz !== undefined && sampleRateHz < MIN_SOURCE_SAMPLE_RATE_HZ) {
      throw cleanupFailures.sampleRateTooLow(sampleRateHz, MIN_SOURCE_SAMPLE_RATE_HZ);
    }

    const stereoPath = probed.channels >= 2 ? stereoCandidatePath : undefined;
    let settleWritten = () => undefined as void;
    const written = new Promise<void>((resolve) => { settleWritten = resolve; });
    if (stereoPath === undefined) input.whileDecodingMono?.({ monoPath, ...(stated !== undefined ? { expectedSeconds: stated } : {}), written });
    let decoded: DecodeOutcome;
    try {
      decoded = await decodeAudio({
        ffmpegPath,
        sourcePath,
        monoPath,
        stereoPath,
        // One second over the limit is enough to tell "too long", and bounds a header that lies.
        maxSeconds: maxDurationSeconds + 1,
        expectedSeconds: stated,
      }, context);
    } finally {
      settleWritten();
    }

    const mono = await measureDecoded(monoPath, decoded, context);
    if (mono.durationSeconds > maxDurationSeconds) throw cleanupFailures.longerThanLimit(maxDurationSeconds);
    if (isSilent(mono, decoded)) throw cleanupFailures.onlySilence();

    const stereo = stereoPath === undefined ? undefined : await context.runInWorker('measureLevels', { path: stereoPath });
    context.signal.throwIfAborted();
    context.reportProgress(1);
    return {
      monoPath,
      stereoPath,
      sourceChannels: probed.channels,
      durationSeconds: mono.durationSeconds,
      levels: stereo ? { ...mono, channels: stereo.channels, channelActiveFractions: stereo.channelActiveFractions } : mono,
    };
  } catch (error) {
    await removeOutputs();
    throw error;
  }
}

/**
 * Levels of the mono output, or the failure that no audio decoded: "no audio" when ffmpeg was
 * content (a header with no samples), "damaged" when it stopped at an error before any sample.
 */
async function measureDecoded(monoPath: string, decoded: DecodeOutcome, context: StageContext): Promise<LevelMeasurement> {
  const written = await stat(monoPath).then((stats) => stats.size > 0, () => false);
  let levels: LevelMeasurement | undefined;
  try {
    levels = written ? await context.runInWorker('measureLevels', { path: monoPath }) : undefined;
  } catch (error) {
    // An ffmpeg that failed may leave a file without a usable header; one that succeeded may not.
    if (decoded.exitedCleanly) throw error;
    throw cleanupFailures.damaged(redactedCause(error, [monoPath]));
  }
  if (levels && levels.durationSeconds > 0) return levels;
  throw decoded.exitedCleanly ? cleanupFailures.noAudio() : cleanupFailures.damaged();
}

function isSilent(mono: LevelMeasurement, decoded: DecodeOutcome): boolean {
  const loudness = decoded.sourceLoudnessLufs;
  return mono.activeFraction < MIN_ACTIVE_FRACTION || (loudness !== undefined && loudness < MIN_SOURCE_LOUDNESS_LUFS);
}
