/**
 * `npm run eval:hotwords`: do names come out better when whisper is given them as its initial
 * prompt (src/pipeline/transcription/transcriptionPrompt.ts)?
 *
 * For each call of scripts/evaluation/hotwordCalls.ts: espeak-ng speaks the lines in two voices
 * (scripts/audio/makeConversation.ts) and clean-up makes the pipeline's 16 kHz mono WAV, once
 * per call for every transcriber. Each transcriber then runs the transcription stage twice per
 * call through the same code the service runs (transcribeWith): without a prompt, and with the
 * call's prompt (the vocabulary, the user's and the contact's names). Prints, per transcriber,
 * per call, per name and overall, and at the end a table of all transcribers:
 * - names found: the share of the calls' names whose transcript holds them exactly (case aside,
 *   whole words; scripts/evaluation/hotwordScoring.ts);
 * - mentions right: of the times the script says a name, how many the transcript spells exactly;
 * - WER: word error rate of the whole transcript against the script (lower case, no
 *   punctuation), over all calls' words.
 *
 * Transcribers:
 * - `--models ID[,ID…] [--paths cli,server,openai]`: the real evaluation models of
 *   `npm run models:eval` (eval-models.json), each through whisper-cli per call (`cli`), the
 *   service's persistent whisper-server (`server`) and `TRANSCRIPTION_PROVIDER=openai` against
 *   faster-whisper-server on the original CTranslate2 model (`openai`), with the service's other
 *   settings from the environment (VAD_MODEL, WHISPER_THREADS). Language: WHISPER_LANGUAGE when
 *   set, else `en` (the calls are English). See scripts/evaluation/hotwordTranscribers.ts.
 * - without `--models`: the service's own settings. `WHISPER_MODEL` names the whisper.cpp model
 *   (defaults to the installed `models/whisper.bin`, run with whisper-cli), `VAD_MODEL` and
 *   `WHISPER_LANGUAGE` apply as in the service; or `TRANSCRIPTION_PROVIDER=openai` with
 *   `TRANSCRIPTION_URL` (and `TRANSCRIPTION_API_KEY`, `TRANSCRIPTION_MODEL_NAME`).
 *
 * `--calls NAME[,NAME…]` measures only those calls (for a quick check); `--show-text` also prints
 * each transcript. Needs Debian's `espeak-ng` and `sox`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { transcriptionPrompt } from '../src/pipeline/transcription/transcriptionPrompt.js';
import { transcribeWith } from '../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { makeConversation } from './audio/makeConversation.js';
import { expectedNames, hotwordCallLines, hotwordCalls, type HotwordCall } from './evaluation/hotwordCalls.js';
import { nameFound, nameMentions, scoringWords, wordErrorRate } from './evaluation/hotwordScoring.js';
import { configuredTranscriber, openEvalModelTranscriber, transcriberPaths, type OpenTranscriber, type TranscriberPath } from './evaluation/hotwordTranscribers.js';

const { values } = parseArgs({ options: { models: { type: 'string' }, paths: { type: 'string', default: transcriberPaths.join(',') }, calls: { type: 'string' }, 'show-text': { type: 'boolean', default: false } } });
const showText = values['show-text']!;
const percent = (part: number, total: number) => `${total === 0 ? '—' : ((part / total) * 100).toFixed(1)} % (${part}/${total})`;
const pad = (text: string, width: number) => text.padEnd(width);

/** A call made once and transcribed by every transcriber. */
interface PreparedCall {
  call: HotwordCall;
  monoPath: string;
  durationSeconds: number;
  prompt: string | undefined;
  /** The script's words, as scored. */
  reference: string[];
  /** The script's text, where names are counted. */
  script: string;
}

/** Counts over all calls, without or with the prompt. */
interface Tally {
  namesFound: number;
  mentionsRight: number;
  errors: number;
  words: number;
}

/** One transcriber's figures. */
interface TranscriberResult {
  label: string;
  names: number;
  mentions: number;
  referenceWords: number;
  without: Tally;
  with: Tally;
}

const config = loadConfig(process.env);
const paths = values.paths!.split(',').map((path) => path.trim());
for (const path of paths) if (!(transcriberPaths as readonly string[]).includes(path)) throw new Error(`--paths takes ${transcriberPaths.join(', ')}; not ${path}`);
const modelIds = values.models?.split(',').map((id) => id.trim()).filter((id) => id !== '');
const language = process.env.WHISPER_LANGUAGE ?? 'en';
const callNames = values.calls?.split(',').map((name) => name.trim());
const chosenCalls = callNames === undefined ? hotwordCalls : callNames.map((name) => {
  const call = hotwordCalls.find((candidate) => candidate.name === name);
  if (!call) throw new Error(`--calls: no call ${name}; the calls are ${hotwordCalls.map((candidate) => candidate.name).join(', ')}`);
  return call;
});
/** Opened one at a time, in order, so that only one model is loaded at once. */
const transcribers: (() => OpenTranscriber | Promise<OpenTranscriber>)[] = modelIds === undefined
  ? [() => configuredTranscriber(config)]
  : modelIds.flatMap((id) => paths.map((path) => () => openEvalModelTranscriber(id, path as TranscriberPath, config, language)));

const run = new LocalPipelineRun();
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-hotwords-'));
const results: TranscriberResult[] = [];
try {
  const calls = await prepareCalls(work);
  for (const open of transcribers) {
    const transcriber = await open();
    try {
      results.push(await evaluate(transcriber, calls, work));
    } finally {
      await transcriber.close();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log('\nAll transcribers (without → with the prompt):');
console.log(`   ${pad('transcriber', 28)} ${pad('names found', 36)} ${pad('mentions right', 36)} WER`);
for (const result of results) {
  const pair = (part: (tally: Tally) => number, total: number) => pad(`${percent(part(result.without), total)} → ${percent(part(result.with), total)}`, 36);
  console.log(`   ${pad(result.label, 28)} ${pair((tally) => tally.namesFound, result.names)} ${pair((tally) => tally.mentionsRight, result.mentions)} ${pair((tally) => tally.errors, result.referenceWords)}`);
}
if (results.every((result) => result.without.words === 0 && result.with.words === 0)) {
  console.log('\nThe model produced no words: measure real models with --models (after `npm run models:eval`), or install one (callscope models fetch, or WHISPER_MODEL=<ggml-base.en.bin>).');
  console.log('These figures say nothing about names as hotwords; they only show the evaluation runs end to end.');
}

/** Every call's audio as the pipeline's clean-up makes it, with its prompt and reference. */
async function prepareCalls(folder: string): Promise<PreparedCall[]> {
  const prepared: PreparedCall[] = [];
  for (const call of chosenCalls) {
    const callFolder = join(folder, call.name);
    await mkdir(callFolder, { recursive: true });
    const lines = hotwordCallLines(call);
    const conversation = await makeConversation({ outputPath: join(callFolder, 'call.wav'), lines });
    const cleaned = await cleanAudio({ sourcePath: conversation.path, outputDir: callFolder, maxDurationSeconds: 7200 }, run.contextFor('cleanup'));
    const script = lines.map((line) => line.text).join(' ');
    prepared.push({
      call,
      monoPath: cleaned.monoPath,
      durationSeconds: cleaned.durationSeconds,
      prompt: transcriptionPrompt({ userDisplayName: call.userDisplayName, contactName: call.contactName, vocabulary: call.vocabulary }),
      reference: scoringWords(script),
      script,
    });
  }
  return prepared;
}

/** Transcribes every call without and with its prompt, printing per call and per name. */
async function evaluate(transcriber: OpenTranscriber, calls: readonly PreparedCall[], folder: string): Promise<TranscriberResult> {
  console.log(`\n━━ ${transcriber.label}: ${transcriber.description}; ${calls.length} calls, each transcribed without and with its prompt`);
  const result: TranscriberResult = { label: transcriber.label, names: 0, mentions: 0, referenceWords: 0, without: emptyTally(), with: emptyTally() };
  const perName: { name: string; call: string; without: boolean; with: boolean }[] = [];
  for (const prepared of calls) {
    const transcribe = async (withPrompt: boolean): Promise<string> => {
      const transcription = await transcribeWith(transcriber.settings, {
        audioPath: prepared.monoPath, durationSeconds: prepared.durationSeconds, ...(withPrompt && prepared.prompt !== undefined ? { prompt: prepared.prompt } : {}),
      }, join(folder, prepared.call.name), run.contextFor('transcription'));
      return transcription.words.map((word) => word.text).join(' ');
    };
    const texts = { without: await transcribe(false), with: await transcribe(true) };
    const names = expectedNames(prepared.call);
    result.names += names.length;
    result.referenceWords += prepared.reference.length;
    const errors = { without: 0, with: 0 };
    for (const key of ['without', 'with'] as const) {
      const hypothesis = scoringWords(texts[key]);
      errors[key] = Math.round(wordErrorRate(prepared.reference, hypothesis) * prepared.reference.length);
      result[key].errors += errors[key];
      result[key].words += hypothesis.length;
      for (const name of names) {
        const said = nameMentions(prepared.script, name);
        if (key === 'without') result.mentions += said;
        result[key].mentionsRight += Math.min(said, nameMentions(texts[key], name));
        if (nameFound(texts[key], name)) result[key].namesFound += 1;
      }
    }
    const found = names.map((name) => ({ name, call: prepared.call.name, without: nameFound(texts.without, name), with: nameFound(texts.with, name) }));
    perName.push(...found);
    console.log(`■ ${prepared.call.name} (${prepared.durationSeconds.toFixed(1)} s), prompt: ${JSON.stringify(prepared.prompt)}`);
    console.log(`   names found   without ${pad(percent(found.filter((name) => name.without).length, names.length), 16)} with ${percent(found.filter((name) => name.with).length, names.length)}`);
    console.log(`   WER           without ${pad(percent(errors.without, prepared.reference.length), 16)} with ${percent(errors.with, prepared.reference.length)}`);
    if (showText) console.log(`   without: ${texts.without}\n   with:    ${texts.with}`);
  }

  console.log('Per name (found exactly in the transcript; without → with the prompt):');
  for (const entry of perName) console.log(`   ${pad(entry.name, 22)} ${pad(entry.call, 16)} ${mark(entry.without)} → ${mark(entry.with)}`);
  console.log('Overall:');
  console.log(`   names found exactly   without ${pad(percent(result.without.namesFound, result.names), 18)} with ${percent(result.with.namesFound, result.names)}`);
  console.log(`   mentions right        without ${pad(percent(result.without.mentionsRight, result.mentions), 18)} with ${percent(result.with.mentionsRight, result.mentions)}`);
  console.log(`   word error rate       without ${pad(percent(result.without.errors, result.referenceWords), 18)} with ${percent(result.with.errors, result.referenceWords)}`);
  console.log(`   words recognised      without ${pad(String(result.without.words), 18)} with ${result.with.words}   (the scripts hold ${result.referenceWords})`);
  return result;
}

function emptyTally(): Tally {
  return { namesFound: 0, mentionsRight: 0, errors: 0, words: 0 };
}

function mark(found: boolean): string {
  return found ? '✓' : '✗';
}
