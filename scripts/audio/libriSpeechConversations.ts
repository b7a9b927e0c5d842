/**
 * Conversations spliced from the LibriSpeech utterances in ../shared/audio/librispeech (186
 * utterances of 132 real speakers, CC BY 4.0), for `npm run eval:diarization`: 2 to 6 speakers
 * taking turns of whole utterances with short gaps, over a faint noise floor, laid out by a
 * seeded generator so every run makes the same files. Where each utterance lands is known to the
 * sample; the reference turns are the parts of it that carry speech (see `speechRegions`).
 *
 * The speakers are split in two halves that share no voice: conversations of the `tuning` half
 * may be used to choose thresholds, those of the `held-out` half only to report them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../src/pipeline/cleanup/ffmpegBinaries.js';
import { MixedRadixFft } from '../../src/pipeline/signal/mixedRadixFft.js';
import { pcm16MonoWav } from '../../src/pipeline/signal/pcm16Wav.js';
import type { SpeakerTurn } from '../../src/pipeline/speechTypes.js';
import { randomSource } from '../evaluation/randomSource.js';

const run = promisify(execFile);
const SAMPLE_RATE = 16_000;

export interface LibriSpeechUtterance {
  /** Path relative to the librispeech folder, e.g. `test-other/1688/1688-142285-0000.flac`. */
  file: string;
  /** The file's path, as the folder was given. */
  path: string;
  speaker: string;
  sex: 'F' | 'M';
  seconds: number;
}

export type EvaluationHalf = 'tuning' | 'held-out';

export interface ConversationPlan {
  name: string;
  half: EvaluationHalf;
  speakers: number;
  seed: number;
}

/**
 * The evaluation's conversations: in each half, one each of 3 to 6 speakers and two of 2 (the
 * sizes issue 35 reports), each with its own seed.
 */
export const libriSpeechConversationPlans: readonly ConversationPlan[] = (['tuning', 'held-out'] as const).flatMap((half, halfIndex) =>
  [2, 2, 3, 4, 5, 6].map((speakers, index) => ({
    name: `librispeech ${half} ${speakers} speakers${index === 1 ? ' (b)' : ''}`,
    half,
    speakers,
    seed: 3500 + 100 * halfIndex + index,
  })));

/**
 * More conversations of the tuning half, to choose thresholds on more than six calls: `perSize`
 * each of 2 to 6 speakers, seeds 9000 + 100·speakers + k (none of the evaluation's). Never the
 * held-out half.
 */
export function extraTuningPlans(perSize: number): ConversationPlan[] {
  return [2, 3, 4, 5, 6].flatMap((speakers) => Array.from({ length: perSize }, (_, index) => ({
    name: `librispeech tuning ${speakers} speakers #${index}`,
    half: 'tuning' as const,
    speakers,
    seed: 9000 + 100 * speakers + index,
  })));
}

/** Who talks over a turn in an interjected conversation: a reader not otherwise in the call, or one of its own. */
export type InterjectionKind = 'stranger' | 'participant';

export interface InterjectionPlan extends ConversationPlan {
  interjection: InterjectionKind;
}

/**
 * Tuning-half conversations of 2 to 4 speakers with one interjection talked over a turn, to
 * choose how overlapped speech is attributed: `perKind` with a stranger (seeds 9700 + k) and
 * `perKind` with a participant (seeds 9800 + k). Never the held-out half.
 */
export function interjectionPlans(perKind: number): InterjectionPlan[] {
  return (['stranger', 'participant'] as const).flatMap((interjection, kindIndex) => Array.from({ length: perKind }, (_, index) => ({
    name: `librispeech tuning ${2 + (index % 3)} speakers, a ${interjection} talking over #${index}`,
    half: 'tuning' as const,
    speakers: 2 + (index % 3),
    seed: 9700 + 100 * kindIndex + index,
    interjection,
  })));
}

/**
 * The conversation of `plan`, with 1.5–3.5 s of another voice talked over its longest turn
 * (from 0.5 s into it, at that turn's level): the start of an utterance of a reader of the same
 * half who is not in the call (`stranger`) or of another of its speakers (`participant`). The
 * reference gains the interjection's speech regions, under the stranger's id prefixed with `x`
 * (so the call has one speaker more) or the participant's own.
 */
export async function spliceInterjectedConversation(folder: string, plan: InterjectionPlan, outputPath: string): Promise<SplicedConversation> {
  const conversation = await spliceLibriSpeechConversation(folder, plan, outputPath);
  const mix = await decodeMono16k(conversation.path);
  const random = randomSource(plan.seed + 7);
  const utterances = readLibriSpeechUtterances(folder);
  const halves = speakerHalves(utterances);
  const inCall = new Set(conversation.turns.map((turn) => turn.speaker));
  const talkedOver = [...conversation.turns].sort((a, b) => (b.endSeconds - b.startSeconds) - (a.endSeconds - a.startSeconds))[0]!;
  const candidates = utterances.filter((utterance) => halves.get(utterance.speaker) === plan.half
    && (plan.interjection === 'stranger' ? !inCall.has(utterance.speaker) : inCall.has(utterance.speaker) && utterance.speaker !== talkedOver.speaker));
  const utterance = candidates[Math.floor(random() * candidates.length)]!;
  const samples = await decodeMono16k(utterance.path);
  const first = speechRegions(samples)[0]?.start ?? 0;
  const interjection = samples.subarray(first, Math.min(samples.length, first + Math.round((1.5 + 2 * random()) * SAMPLE_RATE)));
  const at = Math.round((talkedOver.startSeconds + 0.5) * SAMPLE_RATE);
  const gain = rootMeanSquare(mix.subarray(at, at + interjection.length)) / Math.max(rootMeanSquare(interjection), 1e-9);
  for (let index = 0; index < interjection.length && at + index < mix.length; index++) mix[at + index]! += gain * interjection[index]!;
  const speaker = plan.interjection === 'stranger' ? `x${utterance.speaker}` : utterance.speaker;
  const turns = [
    ...conversation.turns,
    ...speechRegions(interjection).map((region) => ({ speaker, startSeconds: (at + region.start) / SAMPLE_RATE, endSeconds: (at + region.end) / SAMPLE_RATE })),
  ].sort((a, b) => a.startSeconds - b.startSeconds);
  await writeFile(outputPath, pcm16MonoWav(mix, SAMPLE_RATE));
  return { path: outputPath, turns, durationSeconds: conversation.durationSeconds };
}

function rootMeanSquare(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** The utterances listed in `speakers.tsv` (file, speaker, sex, subset, seconds). */
export function readLibriSpeechUtterances(folder: string): LibriSpeechUtterance[] {
  const [, ...rows] = readFileSync(join(folder, 'speakers.tsv'), 'utf8').trim().split('\n');
  return rows.map((row) => {
    const [file, speaker, sex, , seconds] = row.split('\t');
    if (!file || !speaker || (sex !== 'F' && sex !== 'M') || !seconds) throw new Error(`speakers.tsv: unreadable row "${row}"`);
    return { file, path: join(folder, file), speaker, sex, seconds: Number(seconds) };
  });
}

/**
 * The half a speaker belongs to. Speakers with several utterances (the six of test-other) are
 * split three and three; speakers with one utterance alternate in the order of their ids.
 */
export function speakerHalves(utterances: readonly LibriSpeechUtterance[]): Map<string, EvaluationHalf> {
  const counts = new Map<string, number>();
  for (const utterance of utterances) counts.set(utterance.speaker, (counts.get(utterance.speaker) ?? 0) + 1);
  const byId = (a: string, b: string) => Number(a) - Number(b);
  const regular = [...counts].filter(([, count]) => count > 1).map(([speaker]) => speaker).sort(byId);
  const single = [...counts].filter(([, count]) => count === 1).map(([speaker]) => speaker).sort(byId);
  const halves = new Map<string, EvaluationHalf>();
  regular.forEach((speaker, index) => halves.set(speaker, index < regular.length / 2 ? 'tuning' : 'held-out'));
  single.forEach((speaker, index) => halves.set(speaker, index % 2 === 0 ? 'tuning' : 'held-out'));
  return halves;
}

/** Most speakers of a conversation that talk several times: the rest say one utterance each. */
const MOST_REGULAR_SPEAKERS = 3;
/** Gaps between turns, drawn uniformly from this range, seconds. */
const GAP_SECONDS = { least: 0.15, most: 0.6 };
/** Quiet before the first and after the last turn, seconds. */
const EDGE_SECONDS = 0.5;
/** The noise floor under the whole recording: white noise at this RMS level, dBFS. */
const NOISE_FLOOR_DBFS = -60;

export interface SplicedConversation {
  path: string;
  /** Reference turns, sorted by start; speakers named by their LibriSpeech ids. */
  turns: SpeakerTurn[];
  durationSeconds: number;
}

/**
 * Makes the conversation `plan` describes into `outputPath` (16 kHz mono 16-bit WAV): up to three
 * speakers with several utterances talk 3 times each (4 when there are only two speakers), the
 * others once; turns in a seeded order that never gives one speaker two turns in a row while
 * another has turns left.
 */
export async function spliceLibriSpeechConversation(folder: string, plan: ConversationPlan, outputPath: string): Promise<SplicedConversation> {
  const random = randomSource(plan.seed);
  const utterances = readLibriSpeechUtterances(folder);
  const halves = speakerHalves(utterances);
  const inHalf = utterances.filter((utterance) => halves.get(utterance.speaker) === plan.half);
  const bySpeaker = new Map<string, LibriSpeechUtterance[]>();
  for (const utterance of inHalf) {
    const own = bySpeaker.get(utterance.speaker);
    if (own) own.push(utterance);
    else bySpeaker.set(utterance.speaker, [utterance]);
  }
  const regular = shuffled([...bySpeaker.keys()].filter((speaker) => bySpeaker.get(speaker)!.length > 1), random);
  const single = shuffled([...bySpeaker.keys()].filter((speaker) => bySpeaker.get(speaker)!.length === 1), random);
  const regularCount = Math.min(plan.speakers, MOST_REGULAR_SPEAKERS, regular.length);
  if (plan.speakers - regularCount > single.length) throw new Error(`${plan.name}: the ${plan.half} half has too few speakers`);
  const turnsEach = plan.speakers === 2 ? 4 : 3;
  const queues = [
    ...regular.slice(0, regularCount).map((speaker) => shuffled(bySpeaker.get(speaker)!, random).slice(0, turnsEach)),
    ...single.slice(0, plan.speakers - regularCount).map((speaker) => bySpeaker.get(speaker)!),
  ];

  const order: LibriSpeechUtterance[] = [];
  let previous = -1;
  while (queues.some((queue) => queue.length > 0)) {
    const candidates = queues.map((queue, index) => index).filter((index) => queues[index]!.length > 0 && index !== previous);
    const choices = candidates.length > 0 ? candidates : [previous];
    previous = choices[Math.floor(random() * choices.length)]!;
    order.push(queues[previous]!.shift()!);
  }

  return layOut(order, random, outputPath);
}

/** The utterances in `order` with seeded gaps between them over the noise floor, written to `outputPath`; the reference turns. */
async function layOut(order: readonly LibriSpeechUtterance[], random: () => number, outputPath: string): Promise<SplicedConversation> {
  const pieces: { utterance: LibriSpeechUtterance; samples: Float32Array; startSample: number }[] = [];
  let cursor = Math.round(EDGE_SECONDS * SAMPLE_RATE);
  for (const utterance of order) {
    if (pieces.length > 0) cursor += Math.round((GAP_SECONDS.least + random() * (GAP_SECONDS.most - GAP_SECONDS.least)) * SAMPLE_RATE);
    const samples = await decodeMono16k(utterance.path);
    pieces.push({ utterance, samples, startSample: cursor });
    cursor += samples.length;
  }
  const mix = noiseFloor(cursor + Math.round(EDGE_SECONDS * SAMPLE_RATE), NOISE_FLOOR_DBFS, random);
  const turns: SpeakerTurn[] = [];
  for (const { utterance, samples, startSample } of pieces) {
    for (let index = 0; index < samples.length; index++) mix[startSample + index]! += samples[index]!;
    for (const region of speechRegions(samples)) {
      turns.push({ speaker: utterance.speaker, startSeconds: (startSample + region.start) / SAMPLE_RATE, endSeconds: (startSample + region.end) / SAMPLE_RATE });
    }
  }
  await writeFile(outputPath, pcm16MonoWav(mix, SAMPLE_RATE));
  return { path: outputPath, turns, durationSeconds: mix.length / SAMPLE_RATE };
}

/**
 * One reader alone for at least `minSeconds`: every utterance of the held-out half's first
 * speaker with several (test-other 2414), in file order, with the conversations' gaps and noise
 * floor, repeated until long enough. A diarizer should find one speaker in it.
 */
export async function spliceLibriSpeechReading(folder: string, minSeconds: number, outputPath: string): Promise<SplicedConversation & { name: string }> {
  const utterances = readLibriSpeechUtterances(folder);
  const halves = speakerHalves(utterances);
  const reader = utterances.find((utterance) => halves.get(utterance.speaker) === 'held-out' && utterances.filter((other) => other.speaker === utterance.speaker).length > 1)!.speaker;
  const own = utterances.filter((utterance) => utterance.speaker === reader);
  const order: LibriSpeechUtterance[] = [];
  for (let seconds = 0; seconds < minSeconds; seconds += own[order.length % own.length]!.seconds) order.push(own[order.length % own.length]!);
  const conversation = await layOut(order, randomSource(4200), outputPath);
  return { ...conversation, name: `librispeech reading (${reader}, ${own.length} utterances looped)` };
}

/** Reference speech: 10 ms frames, pauses shorter than this are a speaker's own (NIST md-eval's 0.3 s), seconds. */
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
 * The stretches of an utterance that carry speech, in samples: 10 ms frames whose voice-band
 * level ({@link VOICE_BAND_HZ}) is at most 30 dB below the utterance's loud frames and at least
 * 6 dB above its own noise floor, pauses shorter than 0.3 s bridged. LibriSpeech is read speech
 * recorded close to the microphone (floors −94 to −37 dBFS, speech 18–60 dB above them), where
 * level alone finds the pauses between phrases; a reference that counted them as speech would
 * charge every diarizer for the reader's breaths.
 */
export function speechRegions(samples: Float32Array): { start: number; end: number }[] {
  const frame = SAMPLE_RATE / 100;
  const levels = voiceBandLevels(samples, frame);
  const sorted = [...levels].sort((a, b) => a - b);
  const percentile = (share: number) => sorted[Math.floor(share * (sorted.length - 1))] ?? -120;
  const threshold = Math.max(percentile(0.95) - SPEECH_BELOW_LOUD_DB, percentile(0.05) + SPEECH_ABOVE_FLOOR_DB);
  const regions: { start: number; end: number }[] = [];
  const bridged = Math.round(BRIDGED_PAUSE_SECONDS * 100);
  levels.forEach((level, index) => {
    if (level < threshold) return;
    const last = regions.at(-1);
    if (last && index * frame - last.end < bridged * frame) last.end = (index + 1) * frame;
    else regions.push({ start: index * frame, end: (index + 1) * frame });
  });
  return regions;
}

/** The voice-band power of each whole `frame`-sample frame, dB (0 dB: a full-scale sine filling the band's bins). */
function voiceBandLevels(samples: Float32Array, frame: number): number[] {
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

/** Gaussian white noise at `dbfs` RMS (Box–Muller over the seeded source). */
function noiseFloor(samples: number, dbfs: number, random: () => number): Float32Array {
  const sigma = 10 ** (dbfs / 20);
  return Float32Array.from({ length: samples }, () => sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
