/**
 * `npm run eval:hotwords`: do names come out better when whisper is given them as its initial
 * prompt (src/pipeline/transcription/transcriptionPrompt.ts)?
 *
 * For each call of scripts/evaluation/hotwordCalls.ts: espeak-ng speaks the lines in two voices
 * (scripts/audio/makeConversation.ts), clean-up makes the pipeline's 16 kHz mono WAV, and the
 * transcription stage runs twice through the same code the service runs (transcribeWith, with
 * the configured provider): without a prompt, and with the call's prompt (the vocabulary, the
 * user's and the contact's names). Prints, per name and overall:
 * - found: the share of calls whose transcript holds the name exactly (case aside, whole words);
 * - WER: word error rate of the whole transcript against the script (lower case, no punctuation),
 *   over all calls' words.
 *
 * Env: the service's own settings. `WHISPER_MODEL` names the whisper.cpp model (defaults to the
 * installed `models/whisper.bin`), `VAD_MODEL` and `WHISPER_LANGUAGE` apply as in the service;
 * or `TRANSCRIPTION_PROVIDER=openai` with `TRANSCRIPTION_URL` (and `TRANSCRIPTION_API_KEY`,
 * `TRANSCRIPTION_MODEL_NAME`) for an OpenAI-compatible or whisper.cpp server.
 * `--show-text` also prints each transcript. Needs Debian's `espeak-ng` and `sox`.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { modelDisplayName } from '../src/infrastructure/models/resolveModelPath.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { transcriptionPrompt } from '../src/pipeline/transcription/transcriptionPrompt.js';
import { transcribeWith, transcriptionSettingsFromConfig, type TranscriptionSettings } from '../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { makeConversation } from './audio/makeConversation.js';
import { expectedNames, hotwordCallLines, hotwordCalls } from './evaluation/hotwordCalls.js';
import { nameFound, scoringWords, wordErrorRate } from './evaluation/hotwordScoring.js';

const showText = process.argv.includes('--show-text');
const percent = (part: number, total: number) => `${total === 0 ? '—' : ((part / total) * 100).toFixed(1)} % (${part}/${total})`;
const pad = (text: string, width: number) => text.padEnd(width);

/** One way of transcribing a call: its text, and its word errors against the script. */
interface Outcome {
  text: string;
  words: number;
  errors: number;
}

const config = loadConfig(process.env);
const settings = transcriptionSettingsFromConfig(config);
if (settings.provider === 'callback') {
  console.error('eval:hotwords cannot wait for callbacks: run it with TRANSCRIPTION_PROVIDER=openai and the provider\'s TRANSCRIPTION_URL');
  process.exit(1);
}
if (settings.provider === 'local' && !existsSync(settings.local.modelPath)) {
  console.error(`No whisper model at WHISPER_MODEL (now ${modelDisplayName(settings.local.modelPath)}): install one (callscope models fetch) or name one with WHISPER_MODEL=<file>`);
  process.exit(1);
}
console.log(`Transcriber: ${describeTranscriber(settings)}; ${hotwordCalls.length} calls, each transcribed without and with its prompt\n`);

const run = new LocalPipelineRun();
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-hotwords-'));
/** Per expected name: whether it was found without and with the prompt. */
const perName: { name: string; call: string; without: boolean; with: boolean }[] = [];
const totals = { referenceWords: 0, without: { errors: 0, words: 0 }, with: { errors: 0, words: 0 } };
try {
  for (const call of hotwordCalls) {
    const folder = join(work, call.name);
    await mkdir(folder, { recursive: true });
    const lines = hotwordCallLines(call);
    const conversation = await makeConversation({ outputPath: join(folder, 'call.wav'), lines });
    const cleaned = await cleanAudio({ sourcePath: conversation.path, outputDir: folder, maxDurationSeconds: 7200 }, run.contextFor('cleanup'));
    const prompt = transcriptionPrompt({ userDisplayName: call.userDisplayName, contactName: call.contactName, vocabulary: call.vocabulary });
    const reference = scoringWords(lines.map((line) => line.text).join(' '));
    const transcribe = async (withPrompt: boolean): Promise<Outcome> => {
      const transcription = await transcribeWith(settings, {
        audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds, ...(withPrompt && prompt !== undefined ? { prompt } : {}),
      }, folder, run.contextFor('transcription'));
      const text = transcription.words.map((word) => word.text).join(' ');
      const hypothesis = scoringWords(text);
      return { text, words: hypothesis.length, errors: Math.round(wordErrorRate(reference, hypothesis) * reference.length) };
    };
    const without = await transcribe(false);
    const withPrompt = await transcribe(true);

    totals.referenceWords += reference.length;
    for (const [key, outcome] of [['without', without], ['with', withPrompt]] as const) {
      totals[key].errors += outcome.errors;
      totals[key].words += outcome.words;
    }
    const names = expectedNames(call).map((name) => ({ name, call: call.name, without: nameFound(without.text, name), with: nameFound(withPrompt.text, name) }));
    perName.push(...names);
    console.log(`■ ${call.name} (${cleaned.durationSeconds.toFixed(1)} s), prompt: ${JSON.stringify(prompt)}`);
    console.log(`   names found   without ${pad(percent(names.filter((name) => name.without).length, names.length), 16)} with ${percent(names.filter((name) => name.with).length, names.length)}`);
    console.log(`   WER           without ${pad(percent(without.errors, reference.length), 16)} with ${percent(withPrompt.errors, reference.length)}`);
    if (showText) console.log(`   without: ${without.text}\n   with:    ${withPrompt.text}`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log('\nPer name (found exactly in the transcript; without → with the prompt):');
for (const entry of perName) console.log(`   ${pad(entry.name, 22)} ${pad(entry.call, 16)} ${mark(entry.without)} → ${mark(entry.with)}`);

const foundWithout = perName.filter((entry) => entry.without).length;
const foundWith = perName.filter((entry) => entry.with).length;
console.log('\nOverall:');
console.log(`   names found exactly   without ${pad(percent(foundWithout, perName.length), 18)} with ${percent(foundWith, perName.length)}`);
console.log(`   word error rate       without ${pad(percent(totals.without.errors, totals.referenceWords), 18)} with ${percent(totals.with.errors, totals.referenceWords)}`);
console.log(`   words recognised      without ${pad(String(totals.without.words), 18)} with ${totals.with.words}   (the scripts hold ${totals.referenceWords})`);
if (totals.without.words === 0 && totals.with.words === 0) {
  console.log('\nThe model produced no words: install a real whisper model to measure (e.g. callscope models fetch, or WHISPER_MODEL=<ggml-base.en.bin>).');
  console.log('These figures say nothing about names as hotwords; they only show the evaluation runs end to end.');
}

function mark(found: boolean): string {
  return found ? '✓' : '✗';
}

function describeTranscriber(chosen: Exclude<TranscriptionSettings, { provider: 'callback' }>): string {
  if (chosen.provider === 'local') return `whisper.cpp (whisper-cli) with ${modelDisplayName(chosen.local.modelPath)}, language ${chosen.local.language ?? 'auto'}`;
  return `the transcription server at ${new URL(chosen.http.url).host}`;
}
