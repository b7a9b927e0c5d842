import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../cleanup/ffmpegBinaries.js';
import { StageFailure } from '../StageFailure.js';
import type { RedactedSpan } from './redactWords.js';

const run = promisify(execFile);

/** Seconds added before and after each span: recognisers place word edges a little late or early. */
export const tonePaddingSeconds = 0.15;
/** The tone that replaces redacted speech: 1 kHz at a quarter of full scale (about −12 dBFS), clearly a censor beep, not painful. */
export const toneFrequencyHz = 1000;
const toneAmplitude = 0.25;

/** A stretch of audio to replace, seconds. */
export interface ToneSpan {
  startSeconds: number;
  endSeconds: number;
}

/** The spans padded by {@link tonePaddingSeconds}, clamped to [0, duration], sorted and merged where they touch. */
export function paddedToneSpans(spans: readonly Pick<RedactedSpan, 'startSeconds' | 'endSeconds'>[], durationSeconds?: number): ToneSpan[] {
  const padded = spans
    .map((span) => ({
      startSeconds: Math.max(0, span.startSeconds - tonePaddingSeconds),
      endSeconds: durationSeconds === undefined ? span.endSeconds + tonePaddingSeconds : Math.min(durationSeconds, span.endSeconds + tonePaddingSeconds),
    }))
    .filter((span) => span.endSeconds > span.startSeconds)
    .sort((a, b) => a.startSeconds - b.startSeconds);
  const merged: ToneSpan[] = [];
  for (const span of padded) {
    const last = merged.at(-1);
    if (last && span.startSeconds <= last.endSeconds) last.endSeconds = Math.max(last.endSeconds, span.endSeconds);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * The `aeval` filter that keeps each channel outside the spans and puts the tone in their place
 * (per sample, so the edges are exact). Spans must not overlap (see {@link paddedToneSpans}).
 */
export function toneFilter(spans: readonly ToneSpan[], channels: number): string {
  const inside = spans.map((span) => `between(t,${span.startSeconds.toFixed(3)},${span.endSeconds.toFixed(3)})`).join('+');
  // `if` evaluates one branch only: outside the spans, a sample costs the span test and a copy.
  const perChannel = Array.from({ length: channels }, (_, channel) => `if(${inside},${toneAmplitude}*sin(2*PI*${toneFrequencyHz}*t),val(${channel}))`);
  return `aeval='${perChannel.join('|')}':c=same`;
}

interface StreamFacts {
  codec: string;
  channels: number;
  bitRate?: number;
}

/** How a stored format is written back: its muxer and the encoder for the stream's codec. */
function outputArguments(format: string, facts: StreamFacts, isMp4: boolean): string[] {
  const bitRate = facts.bitRate !== undefined && facts.bitRate > 0 ? ['-b:a', String(facts.bitRate)] : [];
  switch (format) {
    case 'wav':
      return ['-c:a', facts.codec.startsWith('pcm_') ? facts.codec : 'pcm_s16le', '-f', 'wav'];
    case 'mp3':
      return ['-c:a', 'libmp3lame', ...bitRate, '-f', 'mp3'];
    case 'm4a':
    case 'aac':
      return ['-c:a', 'aac', ...bitRate, '-f', isMp4 ? 'ipod' : 'adts'];
    case 'ogg': {
      const encoder = facts.codec === 'opus' ? 'libopus' : facts.codec === 'flac' ? 'flac' : 'libvorbis';
      return ['-c:a', encoder, ...(encoder === 'flac' ? [] : bitRate), '-f', 'ogg'];
    }
    default:
      return ['-c:a', 'pcm_s16le', '-f', 'wav'];
  }
}

async function probeStream(ffprobePath: string, path: string): Promise<StreamFacts> {
  const { stdout } = await run(ffprobePath, ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,channels,bit_rate', '-of', 'json', path]);
  const stream = (JSON.parse(stdout) as { streams?: { codec_name?: string; channels?: number; bit_rate?: string }[] }).streams?.[0];
  if (!stream?.codec_name || !stream.channels) throw new Error('no audio stream');
  const bitRate = Number(stream.bit_rate);
  return { codec: stream.codec_name, channels: stream.channels, ...(Number.isFinite(bitRate) ? { bitRate } : {}) };
}

async function startsWithFtyp(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(8);
    await handle.read(header, 0, 8, 0);
    return header.subarray(4, 8).toString('latin1') === 'ftyp';
  } finally {
    await handle.close();
  }
}

/**
 * Rewrites the audio file at `path` (stored as `format`: wav, mp3, m4a, aac or ogg) with each
 * span, padded, replaced by a 1 kHz tone; the same container and codec where ffmpeg can write
 * them. ffmpeg writes a temp file in `tempDir` (on the same filesystem: the run's work folder,
 * which the next run of the call clears), renamed over the original (atomic), so a crash leaves
 * either the old or the new file. Nothing is done without spans. Failures are
 * `unavailable` StageFailures without paths or content: the call must not complete with the
 * redacted words still audible.
 */
export async function toneOverSpans(
  path: string,
  format: string,
  spans: readonly Pick<RedactedSpan, 'startSeconds' | 'endSeconds'>[],
  options: { tempDir: string; signal?: AbortSignal },
): Promise<void> {
  const { signal } = options;
  const toneSpans = paddedToneSpans(spans);
  if (toneSpans.length === 0) return;
  const { ffmpegPath, ffprobePath } = resolveFfmpegBinaries();
  const temporary = join(options.tempDir, `${randomUUID()}.redacting`);
  try {
    const facts = await probeStream(ffprobePath, path);
    const output = outputArguments(format, facts, format === 'm4a' || (format === 'aac' && (await startsWithFtyp(path))));
    await run(ffmpegPath, [
      '-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', path,
      '-map', '0:a:0', '-map_metadata', '0', '-af', toneFilter(toneSpans, facts.channels), ...output, temporary,
    ], { ...(signal ? { signal } : {}), maxBuffer: 1024 * 1024 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : error;
    // ffmpeg's message names the file: it is not passed on.
    throw new StageFailure('unavailable', 'The stored audio could not be redacted (ffmpeg failed to rewrite it)');
  }
}
