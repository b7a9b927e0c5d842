/**
 * `npm run eval:vad [-- --per-recording]`: how much of the speech whisper.cpp's Silero VAD keeps
 * for whisper to decode, and how much non-speech it lets through, under the service's VAD
 * settings (src/pipeline/transcription/whisperVadSettings.ts) and the candidates beside them.
 *
 * Each recording of scripts/evaluation/vadRecordings.json is cleaned by the clean-up stage (its
 * loudness normalisation changes what VAD hears), then run through the built whisper-cli with
 * `--vad` and each setting, told to decode 10 ms, which it refuses after VAD has run: the
 * stretches it logs (`vad_segment_info`) are the ones whisper would decode, and no model time
 * is spent (the structure-only whisper model of ../shared/models is loaded for that reason).
 *
 * Figures, summed over the recordings of each part (`tuning`, `held-out`):
 * - speech kept: reference speech inside the VAD's stretches / reference speech;
 * - non-speech let through: the stretches' time outside reference speech and a 0.25 s collar
 *   around it / that non-speech time (the collar forgives boundaries a reference cannot place);
 * - short turns kept: reference turns of at most 1 s of which the stretches hold at least half.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { loadConfig } from '../src/config/loadConfig.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { resolveModelPath } from '../src/infrastructure/models/resolveModelPath.js';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { parseRttm } from '../src/pipeline/diarization/scoring/rttm.js';
import { defaultWhisperCliPath } from '../src/pipeline/transcription/transcribeAudio.js';
import { vadSegmentsFromWhisperLog } from '../src/pipeline/transcription/VadTimeMap.js';
import { argumentsOf } from '../src/pipeline/transcription/whisperCliArguments.js';
import { whisperVadSettings } from '../src/pipeline/transcription/whisperVadSettings.js';
import { audioSeconds, makeConversation } from './audio/makeConversation.js';
import { gapFill } from './audio/spliceConversation.js';
import { intervalUnion, overlapSeconds, withoutIntervals, type Interval } from './evaluation/intervals.js';

const run = promisify(execFile);

const RecordingSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  part: Type.Enum(['tuning', 'held-out']),
  recorded: Type.Optional(Type.Object({ audio: Type.String({ minLength: 1 }), rttm: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
  call: Type.Optional(Type.Object({
    leadInSeconds: Type.Number({ minimum: 0 }),
    noiseDbfs: Type.Number({ maximum: 0 }),
    lines: Type.Array(Type.Object({ speaker: Type.Enum(['A', 'B']), text: Type.String({ minLength: 1 }) }, { additionalProperties: false }), { minItems: 1 }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
type Recording = Static<typeof RecordingSchema>;
const RecordingsFileSchema = Type.Object({ '//': Type.Optional(Type.String()), recordings: Type.Array(RecordingSchema, { minItems: 1 }) }, { additionalProperties: false });

/** whisper.cpp 1.9's own VAD defaults (whisper-cli's and whisper-server's), by `/inference` field. */
const whisperCppDefaults: Record<string, string> = {
  vad_threshold: '0.5',
  vad_min_speech_duration_ms: '250',
  vad_min_silence_duration_ms: '100',
  vad_speech_pad_ms: '30',
  vad_samples_overlap: '0.1',
};

/** The settings measured: whisper.cpp's defaults with these fields changed. */
const candidates: ReadonlyArray<{ name: string; changes: Record<string, string> }> = [
  { name: 'whisper.cpp defaults (0.5, 250 ms, 100 ms, 30 ms)', changes: {} },
  { name: 'min speech 100 ms', changes: { vad_min_speech_duration_ms: '100' } },
  { name: 'min speech 0 ms', changes: { vad_min_speech_duration_ms: '0' } },
  { name: 'threshold 0.35', changes: { vad_threshold: '0.35' } },
  { name: 'pad 200 ms', changes: { vad_speech_pad_ms: '200' } },
  { name: 'min speech 100 ms, pad 200 ms', changes: { vad_min_speech_duration_ms: '100', vad_speech_pad_ms: '200' } },
  { name: 'threshold 0.35, min speech 100 ms', changes: { vad_threshold: '0.35', vad_min_speech_duration_ms: '100' } },
  { name: "faster-whisper's (min speech 0, silence 2 s, pad 400 ms)", changes: { vad_min_speech_duration_ms: '0', vad_min_silence_duration_ms: '2000', vad_speech_pad_ms: '400' } },
];

/** Reference turns up to this long, seconds, are the short ones ("Hello?", "Yes.") counted apart. */
const shortTurnSeconds = 1;
/** Seconds either side of every reference boundary left out of the non-speech measure. */
const collarSeconds = 0.25;
/** A call turn's speech is where its voice's 10 ms frames reach this level, dBFS RMS (espeak-ng pads its clips with digital silence). */
const voiceFloorDbfs = -50;

interface Reference {
  speech: Interval[];
  shortTurns: Interval[];
}

interface Tally {
  speechSeconds: number;
  keptSeconds: number;
  nonSpeechSeconds: number;
  letThroughSeconds: number;
  shortTurns: number;
  shortTurnsKept: number;
}

const { values } = parseArgs({ options: { 'per-recording': { type: 'boolean', default: false } } });
const sharedAudio = resolve(packageRoot, '../shared/audio');
const structureOnlyWhisper = resolve(packageRoot, '../shared/models/whisper-test-stub-tiny.en.bin');
const vadModel = resolveModelPath(loadConfig({ ...process.env, DATA_DIR: tmpdir() }).VAD_MODEL);
const recordings = loadRecordings();
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-vad-'));
// shape: part → candidate index → summed figures
const tallies = new Map<string, Tally[]>();
try {
  for (const recording of recordings) {
    const folder = join(work, recording.id);
    const { audioPath, reference } = await prepare(recording, folder);
    const cleaned = await cleanAudio({ sourcePath: audioPath, outputDir: folder, maxDurationSeconds: 7200 }, inProcessStageContext());
    const partTallies = tallies.get(recording.part) ?? candidates.map(emptyTally);
    tallies.set(recording.part, partTallies);
    for (const [index, candidate] of candidates.entries()) {
      const stretches = await vadStretches(cleaned.monoPath, candidate.changes);
      const tally = score(reference, stretches, cleaned.durationSeconds);
      addInto(partTallies[index]!, tally);
      if (values['per-recording']) console.log(`${recording.id} | ${candidate.name} | ${formatTally(tally)} | ${stretches.map(([start, end]) => `${start.toFixed(2)}–${end.toFixed(2)}`).join(' ')}`);
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

const serviceValues = Object.fromEntries(whisperVadSettings.map(({ field, value }) => [field, String(value)]));
for (const [part, partTallies] of tallies) {
  console.log(`\n${part}: ${recordings.filter((recording) => recording.part === part).map((recording) => recording.id).join(', ')}\n`);
  console.log('| setting | speech kept | non-speech let through | short turns (≤ 1 s) kept |');
  console.log('|---|---|---|---|');
  partTallies.forEach((tally, index) => {
    const candidate = candidates[index]!;
    const isService = Object.keys(whisperCppDefaults).every((field) => (candidate.changes[field] ?? whisperCppDefaults[field]) === serviceValues[field]);
    console.log(`| ${candidate.name}${isService ? ' **(service)**' : ''} | ${formatTally(tally)} |`);
  });
}

function loadRecordings(): Recording[] {
  const parsed: unknown = JSON.parse(readFileSync(fileURLToPath(new URL('./evaluation/vadRecordings.json', import.meta.url)), 'utf8'));
  if (!Value.Check(RecordingsFileSchema, parsed)) {
    const error = Value.Errors(RecordingsFileSchema, parsed)[0];
    throw new Error(`scripts/evaluation/vadRecordings.json: ${error?.instancePath ?? ''} ${error?.message ?? 'does not match its schema'}`);
  }
  for (const recording of parsed.recordings) {
    if ((recording.recorded === undefined) === (recording.call === undefined)) throw new Error(`scripts/evaluation/vadRecordings.json: ${recording.id} needs exactly one of "recorded" and "call"`);
  }
  return parsed.recordings;
}

/** The recording as the clean-up stage takes it, and where its speech is. */
async function prepare(recording: Recording, folder: string): Promise<{ audioPath: string; reference: Reference }> {
  if (recording.recorded) {
    const turns = parseRttm(await readFile(join(sharedAudio, recording.recorded.rttm), 'utf8')).map((turn): Interval => [turn.startSeconds, turn.endSeconds]);
    return { audioPath: join(sharedAudio, recording.recorded.audio), reference: referenceOf(turns) };
  }
  const call = recording.call!;
  await mkdir(folder, { recursive: true });
  const voicePath = join(folder, 'voice.wav');
  const conversation = await makeConversation({ outputPath: voicePath, lines: call.lines });
  const levels = await frameLevelsDbfs(voicePath);
  const turns = conversation.turns.map(({ startSeconds, endSeconds }): Interval => {
    const loud = levels.flatMap((level, frame) => (level >= voiceFloorDbfs && frame * 0.01 >= startSeconds && frame * 0.01 < endSeconds ? [frame * 0.01] : []));
    return [call.leadInSeconds + (loud[0] ?? startSeconds), call.leadInSeconds + (loud.length > 0 ? loud[loud.length - 1]! + 0.01 : endSeconds)];
  });
  // The voices after the lead-in, with the line's noise under the whole call (`-v 1`: sox's mix would halve each input).
  const paddedPath = join(folder, 'padded.wav');
  const noisePath = join(folder, 'noise.wav');
  const audioPath = join(folder, 'call.wav');
  await run('sox', ['-D', voicePath, paddedPath, 'pad', String(call.leadInSeconds), '0']);
  await run('sox', ['-D', '-R', '-n', '-r', '16000', '-c', '1', '-b', '16', noisePath, ...gapFill(await audioSeconds(paddedPath), call.noiseDbfs)]);
  await run('sox', ['-D', '-m', '-v', '1', paddedPath, '-v', '1', noisePath, audioPath]);
  return { audioPath, reference: referenceOf(turns) };
}

function referenceOf(turns: Interval[]): Reference {
  return { speech: intervalUnion(turns), shortTurns: turns.filter(([start, end]) => end - start <= shortTurnSeconds) };
}

/** RMS level of each 10 ms frame of a 16 kHz mono 16-bit file, dBFS. */
async function frameLevelsDbfs(path: string): Promise<number[]> {
  const { stdout } = await run('sox', [path, '-t', 's16', '-'], { encoding: 'buffer', maxBuffer: 1 << 30 });
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.byteLength / 2));
  const levels: number[] = [];
  for (let start = 0; start < samples.length; start += 160) {
    const frame = samples.subarray(start, start + 160);
    const meanSquare = frame.reduce((sum, sample) => sum + sample * sample, 0) / frame.length;
    levels.push(10 * Math.log10(meanSquare / 32768 ** 2 + 1e-12));
  }
  return levels;
}

/** The stretches, seconds, that whisper-cli's VAD keeps of `audioPath` with the candidate's settings. */
async function vadStretches(audioPath: string, changes: Record<string, string>): Promise<Interval[]> {
  const settings = whisperVadSettings.map((setting) => ({ ...setting, value: changes[setting.field] ?? whisperCppDefaults[setting.field]! }));
  const { stderr } = await run(defaultWhisperCliPath, ['-m', structureOnlyWhisper, '-f', audioPath, '-l', 'en', '-t', '1', '-d', '10', '--vad', '--vad-model', vadModel, ...argumentsOf(settings)], { maxBuffer: 1 << 24 });
  return vadSegmentsFromWhisperLog(stderr.split('\n')).map((segment): Interval => [segment.originalStartMs / 1000, segment.originalEndMs / 1000]);
}

function score(reference: Reference, stretches: Interval[], durationSeconds: number): Tally {
  const kept = intervalUnion(stretches);
  const collared = intervalUnion(reference.speech.map(([start, end]): Interval => [start - collarSeconds, end + collarSeconds]));
  const nonSpeech = withoutIntervals([[0, durationSeconds]], collared);
  const speechSeconds = overlapSeconds(reference.speech, [[0, durationSeconds]]);
  return {
    speechSeconds,
    keptSeconds: overlapSeconds(reference.speech, kept),
    nonSpeechSeconds: overlapSeconds(nonSpeech, [[0, durationSeconds]]),
    letThroughSeconds: overlapSeconds(nonSpeech, kept),
    shortTurns: reference.shortTurns.length,
    shortTurnsKept: reference.shortTurns.filter(([start, end]) => overlapSeconds([[start, end]], kept) >= (end - start) / 2).length,
  };
}

function emptyTally(): Tally {
  return { speechSeconds: 0, keptSeconds: 0, nonSpeechSeconds: 0, letThroughSeconds: 0, shortTurns: 0, shortTurnsKept: 0 };
}

function addInto(total: Tally, tally: Tally): void {
  for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
}

function formatTally(tally: Tally): string {
  const share = (part: number, whole: number) => `${whole > 0 ? ((100 * part) / whole).toFixed(1) : '–'} % (${part.toFixed(1)}/${whole.toFixed(1)} s)`;
  return `${share(tally.keptSeconds, tally.speechSeconds)} | ${share(tally.letThroughSeconds, tally.nonSpeechSeconds)} | ${tally.shortTurnsKept}/${tally.shortTurns}`;
}
