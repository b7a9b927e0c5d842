/**
 * Where a recording of one speaker carries speech, as an evaluation's reference marks it: the
 * convention NIST's md-eval scores by (a speaker's pauses under 0.3 s are part of the turn,
 * longer ones are not), found from the voice band's level. The conversation makers lay known
 * recordings end to end and take their references from here.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../src/pipeline/cleanup/ffmpegBinaries.js';
import { MixedRadixFft } from '../../src/pipeline/signal/mixedRadixFft.js';
import type { SpeakerTurn } from '../../src/pipeline/speechTypes.js';

const run = promisify(execFile);
const SAMPLE_RATE = 16_000;

/** Levels are measured in frames of 10 ms. */
const FRAMES_PER_SECOND = 100;
const FRAME_SAMPLES = SAMPLE_RATE / FRAMES_PER_SECOND;
/** Pauses shorter than this are a speaker's own (NIST md-eval's 0.3 s), seconds. */
const BRIDGED_PAUSE_SECONDS = 0.3;
/** A frame is speech when its level is within this of the utterance's loud frames (95th percentile), dB… */
const SPEECH_BELOW_LOUD_DB = 30;
/** …and at least this far above its quiet frames (5th percentile, the recording's own floor), dB. */
const SPEECH_ABOVE_FLOOR_DB = 6;
/**
 * A frame's level is that of the voice band, Hz: above mains hum and its first harmonic
 * (50/60, 100/120 Hz) and the thumps and rumble of a handled microphone, up to where speech's
 * formants end. Reader 1688 of test-other has thumps of up to −17 dBFS RMS below 50 Hz every
 * 0.3 s in his pauses, which a level over the whole band counted as speech; the regions barely
 * move with the edges (100–5000, 150–4000, 300–3400 Hz: within 0.07 s on that reader).
 */
const VOICE_BAND_HZ = { lowest: 150, highest: 4000 };
/** Each frame's level is measured over a 25 ms Hann window centred on it (40 Hz bins), samples. */
const LEVEL_WINDOW_SAMPLES = 400;

/**
 * The level above which a 10 ms frame of `samples` is speech, dB as {@link voiceBandLevels}
 * measures: at most 30 dB below its loud frames and at least 6 dB above its own noise floor.
 * Measured over a whole recording of one speaker, it also judges pieces cut from it (a piece of
 * 1–2 s of talk has no floor of its own to measure).
 */
export function speechLevelThreshold(samples: Float32Array): number {
  return thresholdOfLevels(voiceBandLevels(samples));
}

/** {@link speechLevelThreshold} from the frames' levels already measured. */
function thresholdOfLevels(levels: readonly number[]): number {
  const sorted = levels.toSorted((a, b) => a - b);
  const percentile = (share: number) => sorted[Math.floor(share * (sorted.length - 1))] ?? -120;
  return Math.max(percentile(0.95) - SPEECH_BELOW_LOUD_DB, percentile(0.05) + SPEECH_ABOVE_FLOOR_DB);
}

/**
 * The stretches of an utterance that carry speech, in samples: 10 ms frames whose voice-band
 * level ({@link VOICE_BAND_HZ}) reaches `thresholdDb` (by default {@link speechLevelThreshold}
 * of the utterance itself), pauses shorter than 0.3 s bridged. LibriSpeech is read speech
 * recorded close to the microphone (floors −94 to −37 dBFS, speech 18–60 dB above them), where
 * level alone finds the pauses between phrases; a reference that counted them as speech would
 * charge every diarizer for the reader's breaths.
 */
export function speechRegions(samples: Float32Array, thresholdDb?: number): { start: number; end: number }[] {
  // The levels once: the threshold, when not given, comes from the same frames.
  const levels = voiceBandLevels(samples);
  const threshold = thresholdDb ?? thresholdOfLevels(levels);
  const regions: { start: number; end: number }[] = [];
  const bridged = Math.round(BRIDGED_PAUSE_SECONDS * FRAMES_PER_SECOND);
  levels.forEach((level, index) => {
    if (level < threshold) return;
    const last = regions.at(-1);
    if (last && index * FRAME_SAMPLES - last.end < bridged * FRAME_SAMPLES) last.end = (index + 1) * FRAME_SAMPLES;
    else regions.push({ start: index * FRAME_SAMPLES, end: (index + 1) * FRAME_SAMPLES });
  });
  return regions;
}

/**
 * `speaker`'s reference turns for `samples` laid into a recording at `startSample`: its speech
 * regions ({@link speechRegions}), in seconds of that recording.
 */
export function speechTurns(samples: Float32Array, speaker: string, startSample: number, thresholdDb?: number): SpeakerTurn[] {
  return speechRegions(samples, thresholdDb).map((region) => ({
    speaker,
    startSeconds: (startSample + region.start) / SAMPLE_RATE,
    endSeconds: (startSample + region.end) / SAMPLE_RATE,
  }));
}

/**
 * The speech within each of `turns` of the recording at `path`, each turn judged by its own levels
 * ({@link speechTurns}): a reference in this module's convention for a recording whose turns are
 * whole utterances, as espeak-ng speaks each line with its pauses.
 */
export async function speechWithinTurns(path: string, turns: readonly SpeakerTurn[]): Promise<SpeakerTurn[]> {
  const samples = await decodeMono16k(path);
  return turns.flatMap((turn) => {
    const first = Math.round(turn.startSeconds * SAMPLE_RATE);
    return speechTurns(samples.subarray(first, Math.round(turn.endSeconds * SAMPLE_RATE)), turn.speaker, first);
  });
}

/** The voice-band power of each whole `frame`-sample frame, dB (0 dB: a full-scale sine filling the band's bins). */
function voiceBandLevels(samples: Float32Array, frame = FRAME_SAMPLES): number[] {
  const fft = new MixedRadixFft(LEVEL_WINDOW_SAMPLES);
  const power = new Float64Array(LEVEL_WINDOW_SAMPLES / 2 + 1);
  const windowed = new Float64Array(LEVEL_WINDOW_SAMPLES);
  const hann = Float64Array.from({ length: LEVEL_WINDOW_SAMPLES }, (_, index) => 0.5 - 0.5 * Math.cos((2 * Math.PI * index) / LEVEL_WINDOW_SAMPLES));
  // Σ hann² · N / 2: a full-scale sine's power summed over its bins, so levels read like dBFS of a sine.
  const fullScale = (hann.reduce((sum, weight) => sum + weight ** 2, 0) * LEVEL_WINDOW_SAMPLES) / 2;
  const binHz = SAMPLE_RATE / LEVEL_WINDOW_SAMPLES;
  const lowestBin = Math.ceil(VOICE_BAND_HZ.lowest / binHz);
  const highestBin = Math.floor(VOICE_BAND_HZ.highest / binHz);
  const levels: number[] = [];
  for (let start = 0; start + frame <= samples.length; start += frame) {
    const first = start + frame / 2 - LEVEL_WINDOW_SAMPLES / 2;
    for (let index = 0; index < LEVEL_WINDOW_SAMPLES; index++) windowed[index] = (samples[first + index] ?? 0) * hann[index]!;
    fft.powerSpectrum(windowed, power);
    let band = 0;
    for (let bin = lowestBin; bin <= highestBin; bin++) band += power[bin]!;
    levels.push(10 * Math.log10(band / fullScale + 1e-12));
  }
  return levels;
}

/** The file as 16 kHz mono float samples, decoded by the product's own ffmpeg. */
export async function decodeMono16k(path: string): Promise<Float32Array> {
  const { stdout } = await run(resolveFfmpegBinaries().ffmpegPath, ['-v', 'error', '-i', path, '-f', 'f32le', '-ac', '1', '-ar', String(SAMPLE_RATE), '-'], { encoding: 'buffer', maxBuffer: 1 << 30 });
  return new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
}

