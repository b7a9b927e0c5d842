import ffmpeg, { type FfprobeData } from 'fluent-ffmpeg';
import { cleanupFailures, redactedCause } from './cleanupFailures.js';

export interface ProbedAudio {
  /** Channels of the first audio stream. */
  channels: number;
  /** Samples per second per channel of the first audio stream; undefined when ffprobe reports none. */
  sampleRateHz?: number;
  /** Length the container states, in seconds; undefined when it states none (raw streams, a bare WAV header). */
  containerDurationSeconds?: number;
}

/**
 * What ffprobe reads from the headers of `sourcePath` (it does not decode the audio, so this is
 * quick even for hours of audio). Throws a `bad_input` StageFailure when the file is not
 * readable as audio or holds no audio stream.
 */
export async function probeAudio(sourcePath: string, ffprobePath: string): Promise<ProbedAudio> {
  const data = await new Promise<FfprobeData>((resolve, reject) => {
    // `-v error`: the cause then holds ffprobe's complaint, not its banner.
    ffmpeg(sourcePath).setFfprobePath(ffprobePath).ffprobe(['-v', 'error'], (error: unknown, result: FfprobeData) => {
      if (!error) resolve(result);
      else if (isSpawnFailure(error)) reject(cleanupFailures.ffmpegMissing(redactedCause(error, [ffprobePath])));
      else reject(cleanupFailures.damaged(redactedCause(error, [sourcePath])));
    });
  });

  const audio = data.streams.find((stream) => stream.codec_type === 'audio');
  if (!audio) throw cleanupFailures.noAudioStream();
  // ffprobe names a stream even in bytes it only guessed at (random data called .mp3 "is" mp3),
  // but then it found no frame to read the channel count from.
  const channels = Number(audio.channels);
  if (!Number.isInteger(channels) || channels < 1) throw cleanupFailures.damaged();

  const sampleRateHz = Number(audio.sample_rate);
  return {
    channels,
    ...(Number.isFinite(sampleRateHz) && sampleRateHz > 0 ? { sampleRateHz } : {}),
    containerDurationSeconds: positiveSeconds(data.format.duration) ?? positiveSeconds(audio.duration),
  };
}

/** ffprobe reports lengths as numbers, or as "N/A" when it has none. */
function positiveSeconds(value: unknown): number | undefined {
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function isSpawnFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EACCES';
}
