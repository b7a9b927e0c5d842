/**
 * `npm run eval:transcription [-- --models ID[,ID…]] [--paths cli,server,openai] [--recordings ID[,ID…]]`:
 * the word error rate of each real Whisper model (`npm run models:eval`, EVAL_MODELS_DIR) on each
 * way the service reaches whisper, against the words really said:
 * - `cli`: whisper-cli per call with the converted ggml model (`WHISPER_SERVER=off`);
 * - `server`: the service's persistent whisper-server with the same file (`WHISPER_SERVER=on`);
 * - `openai`: `TRANSCRIPTION_PROVIDER=openai` to faster-whisper-server (scripts/models/fasterWhisperServer.ts)
 *   on the original CTranslate2 model, decoding with faster-whisper's own defaults.
 * Each through the service's own code: the recording cleaned by the clean-up stage, then
 * `transcribeWith` with the settings `loadConfig` makes of the environment (VAD_MODEL,
 * WHISPER_THREADS, GPU as the service would take them) and the model, in English.
 *
 * Recordings, each with the words said as its reference:
 * - `jfk`: ../shared/audio/jfk/jfk.wav, its text in ../shared/audio/README.md;
 * - `telephone`: the telephone sample, its STM's texts (speaker turns) in time order;
 * - `espeak-support-call`: a five-minute two-voice espeak-ng call, its script
 *   (scripts/evaluation/transcriptionConversation.json), spoken into EVAL_MODELS_DIR/recordings/
 *   once.
 * Both sides go through Whisper's English normaliser (scripts/models/englishNormaliser.ts); the
 * word error rate is the project's own minimum-edit alignment (scripts/evaluation/speakerAttributedScoring.ts).
 *
 * Held out: these recordings are for evaluation only; nothing in the service is tuned on them.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { loadConfig } from '../src/config/loadConfig.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { modelDisplayName } from '../src/infrastructure/models/resolveModelPath.js';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { cleanAudio, type CleanedAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { transcribeWith, transcriptionOptionsFromConfig, transcriptionSettingsFromConfig, whisperServerFromConfig, type TranscriptionSettings } from '../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { cachedConversation } from './audio/makeConversation.js';
import { wordErrors, type WordErrors } from './evaluation/speakerAttributedScoring.js';
import { parseStm } from './evaluation/stm.js';
import { loadEvalModelCatalogue } from './models/evalModelCatalogue.js';
import { evalModelsDir, readEvalModels, requireEvalModelFile } from './models/evalModels.js';
import { normaliseEnglish } from './models/englishNormaliser.js';
import { startFasterWhisperServer } from './models/fasterWhisperServer.js';

const transcriptionPaths = ['cli', 'server', 'openai'] as const;
type TranscriptionPath = (typeof transcriptionPaths)[number];
/** The language every path is told: the recordings are English, and the measure is of recognition, not of language detection. */
const language = 'en';

interface Recording {
  id: string;
  /** The audio as given to the clean-up stage. */
  audioPath: string;
  /** The words said, as written (normalised before they are compared). */
  reference: string;
}

const ConversationSchema = Type.Object({
  '//': Type.Optional(Type.String()),
  id: Type.String({ minLength: 1 }),
  lines: Type.Array(Type.Object({ speaker: Type.Union([Type.Literal('A'), Type.Literal('B')]), text: Type.String({ minLength: 1 }) }, { additionalProperties: false }), { minItems: 1 }),
}, { additionalProperties: false });

/** The recordings by id, each made only when asked for (the espeak-ng call is spoken into the cache once). */
const recordingSources: Record<string, (directory: string) => Promise<Recording>> = {
  jfk: async () => {
    // The README's table row for jfk.wav holds its text: `text: "And so my fellow Americans, …"`.
    const readme = await readFile(resolve(packageRoot, '../shared/audio/README.md'), 'utf8');
    const text = /^\| `jfk\/jfk\.wav` \|.*?text: "([^"]+)"/m.exec(readme)?.[1];
    if (text === undefined) throw new Error('../shared/audio/README.md no longer gives the text of jfk/jfk.wav as `text: "…"` in its table');
    return { id: 'jfk', audioPath: resolve(packageRoot, '../shared/audio/jfk/jfk.wav'), reference: text };
  },
  telephone: async () => {
    const segments = parseStm(await readFile(resolve(packageRoot, '../shared/audio/pyannote-sample/sample.stm'), 'utf8'));
    const reference = segments.toSorted((a, b) => a.startSeconds - b.startSeconds).map((segment) => segment.text).join(' ');
    return { id: 'telephone', audioPath: resolve(packageRoot, '../shared/audio/pyannote-sample/sample.wav'), reference };
  },
  'espeak-support-call': async (directory) => {
    const script = Value.Parse(ConversationSchema, JSON.parse(await readFile(fileURLToPath(new URL('./evaluation/transcriptionConversation.json', import.meta.url)), 'utf8')));
    return { id: script.id, audioPath: await cachedConversation(join(directory, 'recordings'), script.id, script.lines), reference: script.lines.map((line) => line.text).join(' ') };
  },
};

/** A transcriber of one model on one path: the stage's settings, and what ends it. */
interface OpenTranscriber {
  settings: TranscriptionSettings;
  close(): Promise<void>;
}

/** The service's environment for evaluation model files: the operator's settings (VAD_MODEL, WHISPER_THREADS, GPU), never an own WHISPER_CLI. */
function environmentFor(overrides: Record<string, string>): Record<string, string | undefined> {
  const { WHISPER_CLI: _operatorsCli, ...environment } = process.env;
  return { ...environment, WHISPER_LANGUAGE: language, ...overrides };
}

/**
 * The service's settings for `path` with model `id`'s files, its server started where one is
 * needed (faster-whisper-server now; whisper-server with the first call).
 */
async function openTranscriber(path: TranscriptionPath, id: string, directory: string): Promise<OpenTranscriber> {
  if (path === 'openai') {
    const server = await startFasterWhisperServer({ modelDirectory: requireEvalModelFile(id, 'ct2Directory', directory), threads: availableParallelism() });
    return {
      settings: transcriptionSettingsFromConfig(loadConfig(environmentFor({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: server.url }))),
      close: () => server.stop(),
    };
  }
  const config = loadConfig(environmentFor({ TRANSCRIPTION_PROVIDER: 'local', WHISPER_MODEL: requireEvalModelFile(id, 'whisperGgml', directory), WHISPER_SERVER: path === 'server' ? 'on' : 'off' }));
  const settings = transcriptionSettingsFromConfig(config);
  if (settings.provider !== 'local') throw new Error('unreachable: TRANSCRIPTION_PROVIDER is local');
  const server = whisperServerFromConfig(config, (binary) => { throw new Error(`No whisper-server at ${binary}: run \`npm run build:native\``); });
  if (!server) return { settings, close: () => Promise.resolve() };
  return { settings: { provider: 'local', local: { ...settings.local, server } }, close: () => server.stop() };
}

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const errorCount = (errors: WordErrors) => errors.substitutions + errors.deletions + errors.insertions;

/** One row of the table: model, path, recording, WER, errors/words, S/D/I, seconds. */
function scoreLine({ model, path, recording, errors, seconds }: { model: string; path: string; recording: string; errors: WordErrors; seconds: number }): string {
  return `${model.padEnd(16)} ${path.padEnd(6)} ${recording.padEnd(20)} ${percent(errors.rate).padStart(7)} ${`${errorCount(errors)}/${errors.referenceWords}`.padStart(12)} ${`${errors.substitutions}/${errors.deletions}/${errors.insertions}`.padStart(9)} ${seconds.toFixed(1).padStart(8)}`;
}

const listOption = (value: string) => value.split(',').map((item) => item.trim()).filter(Boolean);
const { values } = parseArgs({
  options: {
    models: { type: 'string' },
    paths: { type: 'string', default: transcriptionPaths.join(',') },
    recordings: { type: 'string', default: Object.keys(recordingSources).join(',') },
  },
});
const paths = listOption(values.paths!).map((path) => {
  if (!(transcriptionPaths as readonly string[]).includes(path)) throw new Error(`--paths takes ${transcriptionPaths.join(', ')}, not ${path}`);
  return path as TranscriptionPath;
});
const recordingIds = listOption(values.recordings!).map((id) => {
  if (!(id in recordingSources)) throw new Error(`--recordings takes ${Object.keys(recordingSources).join(', ')}, not ${id}`);
  return id;
});
const directory = evalModelsDir();
const catalogue = loadEvalModelCatalogue();
const manifest = readEvalModels(directory);
const whisperModels = catalogue.models.filter((model) => model.kind === 'whisper');
const asked = values.models === undefined ? whisperModels.map((model) => model.id) : listOption(values.models);

const work = await mkdtemp(join(tmpdir(), 'callscope-eval-transcription-'));
interface Run { model: string; path: TranscriptionPath; recording: string; errors: WordErrors; seconds: number }
const runs: Run[] = [];
const recordings: (Recording & { cleaned: CleanedAudio; referenceWords: string[] })[] = [];
try {
  for (const id of recordingIds) {
    const recording = await recordingSources[id]!(directory);
    const cleaned = await cleanAudio({ sourcePath: recording.audioPath, outputDir: join(work, id), maxDurationSeconds: 7200 }, inProcessStageContext());
    const [referenceWords] = await normaliseEnglish([recording.reference]);
    recordings.push({ ...recording, cleaned, referenceWords: referenceWords! });
  }
  const vad = transcriptionOptionsFromConfig(loadConfig(environmentFor({}))).vadModelPath;
  const vadLine = vad !== undefined && existsSync(vad) ? `VAD on (${modelDisplayName(vad)})` : 'no VAD (no VAD_MODEL file)';
  console.log(`eval:transcription: ${recordings.map((recording) => `${recording.id} (${recording.cleaned.durationSeconds.toFixed(0)} s)`).join(', ')}; paths ${paths.join(', ')}; language ${language}; whisper.cpp with ${vadLine}; faster-whisper-server with its own defaults`);
  console.log('Held out: these recordings are for evaluation only; nothing in the service is tuned on them.\n');

  const seenConversions = new Map<string, string>();
  for (const id of asked) {
    const model = whisperModels.find((candidate) => candidate.id === id);
    if (!model) throw new Error(`Unknown model ${id}; Whisper models: ${whisperModels.map((candidate) => candidate.id).join(', ')}`);
    const entry = manifest.models[id];
    const defect = entry?.defect ?? model.defect;
    if (defect !== undefined || entry?.available === false) {
      console.log(`${id}: unavailable, not evaluated: ${defect ?? 'eval-models.json marks it unavailable'}\n`);
      continue;
    }
    const sha256 = model.conversions[0]?.sha256;
    const same = sha256 === undefined ? undefined : seenConversions.get(sha256);
    if (same !== undefined) {
      console.log(`${id}: its converted model is ${same}'s file (SHA-256 ${sha256!.slice(0, 12)}…): not run again\n`);
      continue;
    }
    if (sha256 !== undefined) seenConversions.set(sha256, id);
    for (const path of paths) {
      const transcriber = await openTranscriber(path, id, directory);
      try {
        for (const recording of recordings) {
          const started = Date.now();
          const transcription = await transcribeWith(transcriber.settings, { audioPath: recording.cleaned.monoPath, durationSeconds: recording.cleaned.durationSeconds }, join(work, recording.id), inProcessStageContext());
          const seconds = (Date.now() - started) / 1000;
          // Scored as it comes, so that an interrupted run has still said what it measured.
          const [hypothesisWords] = await normaliseEnglish([transcription.words.map((word) => word.text).join(' ')]);
          const run = { model: id, path, recording: recording.id, errors: wordErrors(recording.referenceWords, hypothesisWords!), seconds };
          runs.push(run);
          console.log(scoreLine(run));
        }
      } finally {
        await transcriber.close();
      }
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log('\nWord error rate against the words said, both sides through Whisper\'s English normaliser (S/D/I: substitutions, deletions, insertions;');
console.log('seconds: wall time of the transcription stage, for information; a path\'s first call includes its server\'s start or model load):');
console.log(`${'model'.padEnd(16)} ${'path'.padEnd(6)} ${'recording'.padEnd(20)} ${'WER'.padStart(7)} ${'errors/words'.padStart(12)} ${'S/D/I'.padStart(9)} ${'seconds'.padStart(8)}`);
for (const model of new Set(runs.map((run) => run.model))) {
  for (const path of paths) {
    const ofPath = runs.filter((run) => run.model === model && run.path === path);
    for (const run of ofPath) console.log(scoreLine(run));
    if (ofPath.length > 1) {
      const words = ofPath.reduce((sum, run) => sum + run.errors.referenceWords, 0);
      const errors = ofPath.reduce((sum, run) => sum + errorCount(run.errors), 0);
      console.log(`${model.padEnd(16)} ${path.padEnd(6)} ${'all recordings'.padEnd(20)} ${percent(errors / words).padStart(7)} ${`${errors}/${words}`.padStart(12)}`);
    }
  }
}
