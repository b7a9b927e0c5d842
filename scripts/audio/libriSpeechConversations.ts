/**
 * Conversations spliced from the LibriSpeech utterances in ../shared/audio/librispeech (186
 * utterances of 132 real speakers, CC BY 4.0), for `npm run eval:diarization`: 2 to 6 speakers
 * taking turns of whole utterances with short gaps, over a faint noise floor, laid out by a
 * seeded generator so every run makes the same files. Where each utterance lands is known to the
 * sample; the reference turns are the parts of it that carry speech (see ./speechRegions.ts).
 *
 * The speakers are split in two halves that share no voice: conversations of the `tuning` half
 * may be used to choose thresholds, those of the `held-out` half only to report them.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pcm16MonoWav } from '../../src/pipeline/signal/pcm16Wav.js';
import type { SpeakerTurn } from '../../src/pipeline/speechTypes.js';
import { randomSource } from '../evaluation/randomSource.js';
import { decodeMono16k, speechRegions, speechTurns } from './speechRegions.js';

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
    ...speechTurns(interjection, speaker, at),
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
    turns.push(...speechTurns(samples, utterance.speaker, startSample));
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
