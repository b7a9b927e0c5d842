import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../../src/pipeline/cleanup/ffmpegBinaries.js';

const execFileAsync = promisify(execFile);

/**
 * Writes a test recording with the same ffmpeg the stage uses: `args` are the inputs and
 * encoder options, e.g. `['-f', 'lavfi', '-i', 'sine=f=440:d=3', '-c:a', 'libmp3lame']`.
 */
export async function generateAudio(outputPath: string, args: string[]): Promise<string> {
  const { ffmpegPath } = resolveFfmpegBinaries();
  await execFileAsync(ffmpegPath, ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args, outputPath]);
  return outputPath;
}

/**
 * ADTS AAC of 3 s of loud noise, then silence up to `seconds`. ADTS has no length field, so
 * ffprobe guesses one from the noisy start's bitrate: about 10 s, whatever the true length.
 */
export function generateUnderestimatedAac(outputPath: string, seconds: number): Promise<string> {
  return generateAudio(outputPath, [
    '-f', 'lavfi', '-i', 'anoisesrc=a=0.5:d=3:r=44100', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono',
    '-filter_complex', `[0][1]concat=n=2:v=0:a=1,atrim=0:${seconds}`, '-c:a', 'aac', '-f', 'adts',
  ]);
}

export interface ProbedStream {
  codecName: string;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
}

/** What ffprobe says of a file's first audio stream: an opinion independent of the stage's own WAV reader. */
export async function probeStream(path: string): Promise<ProbedStream> {
  const { ffprobePath } = resolveFfmpegBinaries();
  const { stdout } = await execFileAsync(ffprobePath, [
    '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,sample_rate,channels:format=duration', '-of', 'json', path,
  ]);
  const data = JSON.parse(stdout) as { streams: { codec_name: string; sample_rate: string; channels: number }[]; format: { duration: string } };
  const stream = data.streams[0];
  if (!stream) throw new Error('no audio stream');
  return { codecName: stream.codec_name, sampleRate: Number(stream.sample_rate), channels: stream.channels, durationSeconds: Number(data.format.duration) };
}
