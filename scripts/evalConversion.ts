/**
 * `npm run eval:conversion [-- --models ID[,ID…]] [--decoding greedy|service]`: proves the
 * CTranslate2 → whisper.cpp conversion (scripts/models/whisper) on real audio. Each converted
 * model transcribes each recording with whisper.cpp; faster-whisper reads the same recording
 * with the original CTranslate2 model and the same decoding settings; both texts go through
 * Whisper's English normaliser, and the word error rate between them is printed per model and
 * recording, and over all recordings of a model.
 *
 * - `greedy` (the default, the proof): whisper-cli with the service's thresholds, decoding
 *   greedily at temperature 0 without timestamps, faster-whisper likewise. This compares the
 *   two models' own choices, token by token; beam search, the seek from timestamp to timestamp
 *   and the sampled fallback are each implemented differently by the two programs. Target: at
 *   most 2 % over a model's recordings (exit 1 above it).
 * - `service`: the service's transcription stage as it runs by default (whisper-cli: beam 5,
 *   timestamps, temperature fallback, no previous-text context); faster-whisper with the
 *   matching settings. For information: the fallback samples at random in both programs.
 *
 * Needs `npm run models:eval` first (the models and the Python reference environment). The
 * recordings are listed in scripts/models/conversionRecordings.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { defaultWhisperCliPath, transcribeAudio } from '../src/pipeline/transcription/transcribeAudio.js';
import { antiHallucinationArguments } from '../src/pipeline/transcription/whisperCliArguments.js';
import { audioSeconds, makeConversation } from './audio/makeConversation.js';
import { loadEvalModelCatalogue } from './models/evalModelCatalogue.js';
import { evalModelsDir, readEvalModels, requireEvalModel } from './models/evalModels.js';
import { runCommand } from './models/runCommand.js';

/** Largest word error rate between the two readings that counts as the same model. */
const targetWer = 0.02;

/** Thresholds of the service's whisper-cli (whisperCliArguments.ts), in faster-whisper's terms; whisper.cpp's repetition test (entropy 2.4) stands where faster-whisper has its compression ratio 2.4. */
const sharedThresholds = {
  compression_ratio_threshold: 2.4,
  log_prob_threshold: -1,
  no_speech_threshold: 0.6,
  condition_on_previous_text: false,
  suppress_tokens: [-1],
  suppress_blank: true,
  vad_filter: false,
};

const decodings = {
  greedy: {
    whisperCliArguments: ['-nf', '-bs', '1', '-bo', '1', '-nt'],
    fasterWhisper: { ...sharedThresholds, beam_size: 1, best_of: 1, temperature: [0], without_timestamps: true },
  },
  /** whisper-cli 1.9's defaults as the service uses them: beam 5, best of 5 when sampling, temperatures 0 to 1 in steps of 0.2, timestamps. */
  service: {
    whisperCliArguments: [],
    fasterWhisper: { ...sharedThresholds, beam_size: 5, best_of: 5, temperature: [0, 0.2, 0.4, 0.6, 0.8, 1], without_timestamps: false },
  },
} as const;
type Decoding = keyof typeof decodings;

const RecordingsSchema = Type.Object({
  '//': Type.Optional(Type.String()),
  shared: Type.Array(Type.Object({ id: Type.String(), path: Type.String(), what: Type.String() }, { additionalProperties: false })),
  espeak: Type.Array(Type.Object({
    id: Type.String(),
    what: Type.String(),
    lines: Type.Array(Type.Object({ speaker: Type.Union([Type.Literal('A'), Type.Literal('B')]), text: Type.String() }, { additionalProperties: false }), { minItems: 1 }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
type Recordings = Static<typeof RecordingsSchema>;

const ScoreSchema = Type.Object({
  model: Type.String(),
  recording: Type.String(),
  fasterWhisper: Type.String(),
  whisperCpp: Type.String(),
  referenceWords: Type.Integer(),
  wer: Type.Number(),
  substitutions: Type.Integer(),
  deletions: Type.Integer(),
  insertions: Type.Integer(),
  fasterWhisperSeconds: Type.Number(),
});
type Score = Static<typeof ScoreSchema>;

function loadRecordings(): Recordings {
  const parsed: unknown = JSON.parse(readFileSync(fileURLToPath(new URL('./models/conversionRecordings.json', import.meta.url)), 'utf8'));
  if (!Value.Check(RecordingsSchema, parsed)) throw new Error(`scripts/models/conversionRecordings.json: ${[...Value.Errors(RecordingsSchema, parsed)].map((error) => `${error.instancePath} ${error.message}`).join('; ')}`);
  return parsed;
}

/** Each recording's WAV: the shared ones where they are, the espeak-ng ones made into the cache when missing. */
async function recordingPaths(recordings: Recordings, directory: string): Promise<{ id: string; path: string }[]> {
  const made = join(directory, 'recordings');
  await mkdir(made, { recursive: true });
  const paths = recordings.shared.map(({ id, path }) => ({ id, path: resolve(packageRoot, path) }));
  for (const { id, lines } of recordings.espeak) {
    const path = join(made, `${id}.wav`);
    if (!existsSync(path)) {
      await makeConversation({ outputPath: `${path}.partial.wav`, lines });
      await rename(`${path}.partial.wav`, path);
    }
    paths.push({ id, path });
  }
  return paths;
}

/** Runs the Python reference on the job and returns its scores. */
function scoreWithFasterWhisper(python: string, job: unknown): Promise<Score[]> {
  return new Promise((resolvePromise, reject) => {
    const script = fileURLToPath(new URL('./models/fasterWhisperReference.py', import.meta.url));
    const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HF_HUB_OFFLINE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`faster-whisper reference failed (exit ${code}):\n${stderr.trim().split('\n').slice(-10).join('\n')}`));
      try {
        resolvePromise(stdout.trim().split('\n').filter(Boolean).map((line) => Value.Parse(ScoreSchema, JSON.parse(line))));
      } catch (error) {
        reject(error);
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

/** whisper.cpp's text for `audioPath`: whisper-cli with the service's thresholds and `extra` decoding flags, its plain-text output. */
async function whisperCliText(modelPath: string, audioPath: string, threads: number, extra: readonly string[]): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'eval-conversion-'));
  try {
    const outputBase = join(folder, 'text');
    const args = ['-m', modelPath, '-f', audioPath, '-t', String(threads), '-l', 'en', '-np', '-otxt', '-of', outputBase, ...antiHallucinationArguments, ...extra];
    const { exitCode, output } = await runCommand(defaultWhisperCliPath, args);
    if (exitCode !== 0) throw new Error(`whisper-cli failed (exit ${exitCode}): ${output.trim().split('\n').slice(-3).join(' / ')}`);
    return await readFile(`${outputBase}.txt`, 'utf8');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { models: { type: 'string' }, decoding: { type: 'string', default: 'greedy' } } });
if (!(values.decoding! in decodings)) throw new Error(`--decoding is greedy or service, not ${values.decoding}`);
const decoding = values.decoding as Decoding;
const directory = evalModelsDir();
const catalogue = loadEvalModelCatalogue();
const whisperModels = catalogue.models.filter((model) => model.kind === 'whisper');
const asked = values.models?.split(',').map((id) => id.trim()) ?? whisperModels.map((model) => model.id);
const python = readEvalModels(directory).pythonReference?.python;
if (python === undefined) throw new Error('The Python reference environment is missing: run `npm run models:eval` (or `npm run models:eval -- --only python-reference`).');

const threads = availableParallelism();
const recordings = await recordingPaths(loadRecordings(), directory);
const cases: { model: string; ct2Directory: string; language: string; recording: string; audioPath: string; whisperCpp: string }[] = [];
const whisperCppSeconds = new Map<string, number>();
const seenConversions = new Map<string, string>();
console.log(`eval:conversion: ${decoding} decoding, ${recordings.length} recordings (${recordings.map((recording) => recording.id).join(', ')}), ${threads} threads`);
for (const id of asked) {
  const model = catalogue.models.find((candidate) => candidate.id === id);
  if (!model) throw new Error(`Unknown model ${id}; Whisper models: ${whisperModels.map((candidate) => candidate.id).join(', ')}`);
  if (model.defect !== undefined) {
    console.log(`${id}: not evaluated, its packages do not give a usable model: ${model.defect}`);
    continue;
  }
  const conversion = model.conversions[0]!;
  const same = seenConversions.get(conversion.sha256);
  if (same !== undefined) {
    console.log(`${id}: its conversion is ${same}'s file (SHA-256 ${conversion.sha256.slice(0, 12)}…), not run again`);
    continue;
  }
  seenConversions.set(conversion.sha256, id);
  const files = requireEvalModel(id, directory);
  const modelPath = files.whisperGgml!;
  for (const recording of recordings) {
    const started = Date.now();
    const text = decoding === 'service'
      ? (await transcribeAudio({ audioPath: recording.path, durationSeconds: await audioSeconds(recording.path) }, { modelPath, threads, language: 'en', useGpu: false }, inProcessStageContext())).words.map((word) => word.text).join(' ')
      : await whisperCliText(modelPath, recording.path, threads, decodings[decoding].whisperCliArguments);
    const key = `${id}/${recording.id}`;
    whisperCppSeconds.set(key, (Date.now() - started) / 1000);
    cases.push({ model: id, ct2Directory: files.ct2Directory!, language: 'en', recording: recording.id, audioPath: recording.path, whisperCpp: text });
    console.log(`${key}: whisper.cpp done in ${whisperCppSeconds.get(key)!.toFixed(1)} s`);
  }
}

const scores = await scoreWithFasterWhisper(join(directory, python), { settings: decodings[decoding].fasterWhisper, threads, cases });
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
console.log(`\nWER of the converted model (whisper.cpp) against faster-whisper on the original, ${decoding} decoding, both normalised:`);
console.log('model            recording            words  WER     S/D/I   whisper.cpp  faster-whisper');
let overTarget = false;
for (const model of new Set(scores.map((score) => score.model))) {
  const ofModel = scores.filter((score) => score.model === model);
  for (const score of ofModel) {
    const seconds = whisperCppSeconds.get(`${model}/${score.recording}`)!;
    console.log(`${model.padEnd(16)} ${score.recording.padEnd(20)} ${String(score.referenceWords).padStart(5)}  ${percent(score.wer).padStart(6)}  ${`${score.substitutions}/${score.deletions}/${score.insertions}`.padStart(6)}  ${`${seconds.toFixed(1)} s`.padStart(11)}  ${`${score.fasterWhisperSeconds.toFixed(1)} s`.padStart(14)}`);
    if (score.wer > 0) console.log(`    faster-whisper: ${score.fasterWhisper}\n    whisper.cpp:    ${score.whisperCpp}`);
  }
  const words = ofModel.reduce((sum, score) => sum + score.referenceWords, 0);
  const errors = ofModel.reduce((sum, score) => sum + score.substitutions + score.deletions + score.insertions, 0);
  overTarget ||= errors / words > targetWer;
  console.log(`${model.padEnd(16)} ${'all recordings'.padEnd(20)} ${String(words).padStart(5)}  ${percent(errors / words).padStart(6)}`);
}
if (decoding === 'greedy') {
  console.log(`\ntarget: at most ${percent(targetWer)} over each model's recordings: ${overTarget ? 'NOT met' : 'met'}`);
  if (overTarget) process.exitCode = 1;
}
