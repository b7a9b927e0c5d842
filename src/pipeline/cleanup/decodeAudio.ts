import { access, constants } from 'node:fs/promises';
import ffmpeg from 'fluent-ffmpeg';
import type { StageContext } from '../StageContext.js';
import { cleanupFailures, redactedCause } from './cleanupFailures.js';

export interface DecodeAudioInput {
  ffmpegPath: string;
  sourcePath: string;
  /** Where the cleaned 16 kHz mono s16le WAV goes. */
  monoPath: string;
  /** When set, the source's first two channels are also written here, kept apart (16 kHz stereo s16le). */
  stereoPath?: string;
  /**
   * ffmpeg reads at most this many seconds of the source (`-t`), whatever its header claims, and
   * writes at most this many seconds to each output (`-fs`; plus one packet, ~0.1 s).
   */
  maxSeconds: number;
  /** The length the container states, in seconds, to turn ffmpeg's position into progress. */
  expectedSeconds?: number;
}

export interface DecodeOutcome {
  /**
   * False when ffmpeg exited non-zero. It stops at damage it cannot skip (a truncated or cut
   * file) after having written what decoded before it, so this alone is not a failure.
   */
  exitedCleanly: boolean;
  /**
   * EBU R128 integrated loudness of the high-passed source before normalisation, in LUFS, as
   * loudnorm measured it; -Infinity when nothing rose above the -70 LUFS absolute gate;
   * undefined when ffmpeg did not report it.
   */
  sourceLoudnessLufs?: number;
}

/** Rate of every output: what the speech models downstream take. */
const OUTPUT_SAMPLE_RATE = 16_000;

/** High-pass corner in Hz: removes mains hum and handling rumble, well below the voice band (300 Hz up on phones). */
const HIGHPASS_HZ = 80;

/**
 * Samples per frame from the resampling to 16 kHz on: 100 ms, loudnorm's own step. aresample
 * turns each frame of the source into one frame, however long it lasts, and loudnorm's internal
 * resampling to 192 kHz would then hold it in one piece. At a rate a header made up (1 Hz;
 * cleanAudio refuses such rates when ffprobe reports them, but a chained Ogg stream can switch
 * to one after its first link) 2048 samples last 2048 s: 3.2 GB of ffmpeg memory for such a
 * 20 KB Ogg file within a 2-hour limit, 170 MB with the frames cut. The filters keep their
 * state across frames, so the output is the same to the bit.
 */
const FRAME_SAMPLES = 1600;

/**
 * loudnorm targets (EBU R128, single pass, so loudnorm runs in its dynamic mode): integrated
 * -23 LUFS (the R128 programme level), loudness range 7 LU (loudnorm's default; evens out a
 * quiet and a loud party), true peak -2 dBTP (headroom for the resampling after it).
 */
const LOUDNORM = 'loudnorm=I=-23:LRA=7:TP=-2:print_format=json';

/**
 * Decodes the source with ffmpeg into the cleaned WAV file(s), in one process reading the
 * source once. Audio never passes through Node: ffmpeg reads and writes the files itself.
 *
 * - mono: downmix, 16 kHz, high-pass, loudnorm, back to 16 kHz (loudnorm works at 192 kHz).
 * - stereo: channels 1 and 2 kept apart, 16 kHz, the same high-pass, no loudness
 *   normalisation: the level difference between the channels is the speaker evidence later
 *   stages read, and a dynamic normaliser per channel would lift one party's bleed or line
 *   noise to speech level. (It would also triple the decoding time: loudnorm dominates it.)
 *
 * Kills ffmpeg and throws the signal's reason when `context.signal` aborts; resolves or throws
 * only after ffmpeg has exited, so the caller may then remove the files.
 */
export async function decodeAudio(
  input: DecodeAudioInput,
  context: Pick<StageContext, 'signal' | 'reportProgress'>,
): Promise<DecodeOutcome> {
  const { signal } = context;
  signal.throwIfAborted();
  // fluent-ffmpeg 2.1.3 throws an uncaught TypeError when the spawn itself fails: check first.
  await access(input.ffmpegPath, constants.X_OK).catch((error: unknown) => {
    throw cleanupFailures.ffmpegMissing(redactedCause(error, [input.ffmpegPath]));
  });

  const command = ffmpeg()
    .setFfmpegPath(input.ffmpegPath)
    .input(input.sourcePath)
    .inputOptions(['-nostdin', '-hide_banner', '-t', String(input.maxSeconds)])
    .complexFilter(filterGraph(input.stereoPath !== undefined))
    .output(input.monoPath)
    .outputOptions(pcmOutputOptions('[mono]', 1, input.maxSeconds));
  if (input.stereoPath !== undefined) command.output(input.stereoPath).outputOptions(pcmOutputOptions('[stereo]', 2, input.maxSeconds));

  const { expectedSeconds } = input;
  if (expectedSeconds !== undefined) {
    // fluent-ffmpeg probes the input again in the background for its own `percent`, which it
    // computes from the container length too; ours is the same figure without the 0..100 scale.
    command.on('progress', (progress: { timemark?: string }) => {
      const seconds = timemarkSeconds(progress.timemark);
      if (seconds !== undefined) context.reportProgress(Math.min(1, seconds / expectedSeconds));
    });
  }

  const kill = () => command.kill('SIGKILL');
  // An abort between run() and the spawn finds no process to kill; 'start' catches that case.
  command.on('start', () => {
    if (signal.aborted) kill();
  });
  signal.addEventListener('abort', kill, { once: true });

  try {
    const ended = await new Promise<{ error?: Error; stderr: string }>((resolve) => {
      command.on('end', (_stdout: string | null, stderr: string | null) => resolve({ stderr: stderr ?? '' }));
      command.on('error', (error: Error, _stdout: string | null, stderr: string | null) => resolve({ error, stderr: stderr ?? '' }));
      command.run();
    });

    signal.throwIfAborted();
    const sourceLoudnessLufs = parseSourceLoudness(ended.stderr);
    if (!ended.error) return { exitedCleanly: true, sourceLoudnessLufs };

    const paths = [input.sourcePath, input.monoPath, input.stereoPath ?? input.monoPath, input.ffmpegPath];
    // Killed by someone else (the OOM killer, an operator), or out of disk for the output: not
    // the recording's fault, and not to be mistaken for a recording cut short.
    if (/killed with signal/.test(ended.error.message) || /No space left on device/i.test(ended.stderr)) {
      throw redactedCause(ended.error, paths);
    }
    return { exitedCleanly: false, sourceLoudnessLufs };
  } finally {
    signal.removeEventListener('abort', kill);
  }
}

/**
 * shape: source stream → [mono] (and [stereo]). `asplit` lets one decode feed both outputs;
 * each branch picks its own channel layout after it (aresample's `ocl`, pan), since the
 * links around asplit share one layout.
 */
function filterGraph(withStereo: boolean): string {
  // Fills gaps in the source's timestamps (frames dropped at a damaged spot of an m4a or ogg)
  // with silence, so times in the cleaned audio stay times in the original recording. Not
  // `first_pts=0`: when garbage decodes as another channel count, ffmpeg rebuilds the graph,
  // and each rebuilt graph would pad from 0 again.
  const keepTimeline = 'aresample=async=1';
  // Downmix and 16 kHz first, so the high-pass and loudnorm see the same input whatever the source.
  const toFrames = `asetnsamples=n=${FRAME_SAMPLES}:p=0`;
  const monoChain = `aresample=${OUTPUT_SAMPLE_RATE}:ocl=mono,${toFrames},highpass=f=${HIGHPASS_HZ},${LOUDNORM},aresample=${OUTPUT_SAMPLE_RATE}`;
  if (!withStereo) return `[0:a:0]${keepTimeline},${monoChain}[mono]`;
  const stereoChain = `pan=stereo|c0=c0|c1=c1,aresample=${OUTPUT_SAMPLE_RATE},${toFrames},highpass=f=${HIGHPASS_HZ}`;
  return `[0:a:0]${keepTimeline},asplit=2[mix][pair];[mix]${monoChain}[mono];[pair]${stereoChain}[stereo]`;
}

/**
 * Room for the WAV header in the `-fs` byte count (RIFF, fmt, LIST with ffmpeg's encoder tag,
 * data: 78 bytes as ffmpeg writes them here).
 */
const WAV_HEADER_ALLOWANCE_BYTES = 1024;

function pcmOutputOptions(label: string, channels: number, maxSeconds: number): string[] {
  // The input's `-t` counts the source's timestamps, and ffmpeg starts that count again when a
  // stream changes format midway (a chained Ogg whose next link has another rate or channel
  // count: ffmpeg rebuilds the filter graph): a 20 KB chained Ogg decoded to 68 s under `-t 61`.
  // `-fs` counts the bytes written instead, so the cap on the output holds whatever happened
  // (ffmpeg stops after the packet that crosses it: ~0.1 s more at most).
  const maxBytes = Math.ceil(maxSeconds * OUTPUT_SAMPLE_RATE) * channels * 2 + WAV_HEADER_ALLOWANCE_BYTES;
  return [
    '-map', label,
    // Tags of the source (titles, names) stay out of the working files.
    '-map_metadata', '-1',
    '-ac', String(channels),
    '-ar', String(OUTPUT_SAMPLE_RATE),
    '-c:a', 'pcm_s16le',
    '-fs', String(maxBytes),
  ];
}

/** "00:01:02.50" → 62.5 seconds; undefined for "N/A" or a missing mark. */
function timemarkSeconds(timemark: string | undefined): number | undefined {
  const parts = timemark?.split(':').map(Number);
  if (!parts || parts.length !== 3 || parts.some((part) => !Number.isFinite(part))) return undefined;
  const [hours = 0, minutes = 0, seconds = 0] = parts;
  return hours * 3600 + minutes * 60 + seconds;
}

/**
 * loudnorm prints its measurements as JSON when its graph closes: `"input_i" : "-32.62"`. A
 * graph rebuilt mid-stream (the decoded format changed at a damaged spot) prints once per
 * part; the loudest part decides whether the recording holds anything.
 */
function parseSourceLoudness(stderr: string): number | undefined {
  const values = [...stderr.matchAll(/"input_i"\s*:\s*"([^"]+)"/g)]
    .map(([, value]) => (value === '-inf' ? Number.NEGATIVE_INFINITY : Number(value)))
    .filter((lufs) => !Number.isNaN(lufs));
  return values.length === 0 ? undefined : Math.max(...values);
}
