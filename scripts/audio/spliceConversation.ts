/**
 * Quick back-and-forth conversations spliced from real voices: recordings of single speakers cut
 * into pieces of 1–2 s (leading and trailing silence trimmed by sox) and laid end to end, the
 * speakers taking turns with short gaps. Where each piece lands is exact ground truth for who
 * speaks when; the reference turns are the parts of each piece that carry speech, judged by the
 * levels of the recording it was cut from (./speechRegions.ts: a speaker's pauses of 0.3 s and
 * more, and the room or breath at a piece's end, are no speech). Needs Debian's `sox`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SpeakerTurn } from '../../src/pipeline/speechTypes.js';
import { decodeMono16k, speechLevelThreshold, speechTurns } from './speechRegions.js';

const run = promisify(execFile);
const SAMPLE_RATE = 16_000;

export interface SplicedVoice {
  /** The speaker's label in the ground truth. */
  label: string;
  /** 16 kHz mono recordings of this speaker alone. */
  recordings: string[];
}

export interface SpliceOptions {
  outputPath: string;
  voices: readonly SplicedVoice[];
  /** Piece lengths used in turn, seconds. Defaults to 1.2–2.2 s. */
  pieceSeconds?: readonly number[];
  /** Gaps between turns used in turn, seconds. Defaults to 0.15–0.5 s. */
  gapSeconds?: readonly number[];
  /**
   * Level of white noise filling the gaps, dBFS RMS (line hiss or a quiet room, as between the
   * turns of most real recordings). Without it the gaps are digital silence (a VoIP stream's
   * silence suppression).
   */
  gapNoiseDbfs?: number;
}

/** Splices the voices' pieces in turn (A, B, A, B, …; a voice out of pieces drops out) into `outputPath`; returns the turns. */
export async function spliceConversation(options: SpliceOptions): Promise<{ path: string; turns: SpeakerTurn[] }> {
  const lengths = options.pieceSeconds ?? [1.6, 1.2, 2.2, 1.4, 1.9];
  const gaps = options.gapSeconds ?? [0.2, 0.35, 0.15, 0.5];
  const work = await mkdtemp(join(tmpdir(), 'callscope-splice-'));
  try {
    // Each voice's pieces (16 kHz samples), each with the speech level of the recording it was cut from.
    const queues: { path: string; samples: Float32Array; thresholdDb: number }[][] = [];
    for (const [voiceIndex, voice] of options.voices.entries()) {
      const pieces: { path: string; samples: Float32Array; thresholdDb: number }[] = [];
      for (const recording of voice.recordings) {
        const source = await decodeMono16k(recording);
        const total = source.length / SAMPLE_RATE;
        const thresholdDb = speechLevelThreshold(source);
        for (let start = 0; start < total - 0.5;) {
          const length = Math.min(lengths[(pieces.length + voiceIndex) % lengths.length]!, total - start);
          const piece = join(work, `voice${voiceIndex}-${pieces.length}.wav`);
          // Trim silence at both ends (sox `silence` on the reversed piece trims the end).
          // -D: no dither. sox dithers 16-bit output after effects with a random seed, so each run's
          // pieces differed in their last bit, and the diarization of the result by several points.
          await run('sox', ['-D', recording, '-r', '16000', '-c', '1', '-b', '16', piece, 'trim', String(start), String(length),
            'silence', '1', '0.02', '1%', 'reverse', 'silence', '1', '0.02', '1%', 'reverse']);
          const samples = await decodeMono16k(piece);
          if (samples.length / SAMPLE_RATE > 0.2) pieces.push({ path: piece, samples, thresholdDb });
          start += length;
        }
      }
      queues.push(pieces);
    }
    const parts: string[] = [];
    const turns: SpeakerTurn[] = [];
    // Where the next piece starts, samples at 16 kHz (each piece and gap a whole number of them).
    let cursor = 0;
    for (let turn = 0, laid = 0; queues.some((queue) => queue.length > 0); turn++) {
      const voice = turn % queues.length;
      const piece = queues[voice]!.shift();
      if (!piece) continue;
      turns.push(...speechTurns(piece.samples, options.voices[voice]!.label, cursor, piece.thresholdDb));
      laid += 1;
      const gap = gaps[laid % gaps.length]!;
      const silence = join(work, `gap-${laid}.wav`);
      // -R: sox's noise generator seeded with a fixed number, so every run makes the same file.
      await run('sox', ['-D', '-R', '-n', '-r', '16000', '-c', '1', '-b', '16', silence, ...gapFill(gap, options.gapNoiseDbfs)]);
      parts.push(piece.path, silence);
      cursor += piece.samples.length + Math.round(gap * SAMPLE_RATE);
    }
    await run('sox', ['-D', ...parts, options.outputPath]);
    return { path: options.outputPath, turns };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * sox effects for a gap of `seconds`: digital silence, or white noise at `noiseDbfs` RMS. sox's
 * whitenoise at `vol v` measures an RMS level 9.78 dB below v (measured on 10 s).
 */
export function gapFill(seconds: number, noiseDbfs: number | undefined): string[] {
  if (noiseDbfs === undefined) return ['trim', '0', String(seconds)];
  return ['synth', String(seconds), 'whitenoise', 'vol', (10 ** ((noiseDbfs + 9.78) / 20)).toFixed(6)];
}

