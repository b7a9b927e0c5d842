/**
 * `npm run eval:end-to-end [-- --models ID[,ID…]] [--recordings ID[,ID…]] [--outputs DIR | --rescore DIR]`: real
 * recordings through the whole pipeline with real Whisper weights, as an operator runs it, and
 * what comes out scored against the references.
 *
 * For each Whisper model (default whisper-tiny.en and whisper-base, the ggml files of
 * `npm run models:eval`), each recording of scripts/evaluation/endToEndRecordings.json (the
 * telephone call ../shared/audio/pyannote-sample/sample.wav and the four AMI meeting openings)
 * runs through `npx callscope process` (a child process) and through the API (the built
 * service, dist/server.js, as `npm start` runs it; a local user uploads the recording, polls its
 * status and reads the transcript and analysis). The two should give the same transcript; the
 * output says whether they do. The telephone call also runs without the user's and the
 * contact's names (so whisper gets no prompt of names), to tell what the prompt changes. Then:
 * - the telephone call against sample.stm, words normalised with Whisper's English normaliser
 *   (scripts/models/englishNormaliser.ts): WER with the speakers ignored, cpWER (concatenated
 *   minimum-permutation WER) and the reference's speaker turns kept (a turn is kept when most of
 *   its recognised words went to the speaker paired with its reference speaker; see
 *   scripts/evaluation/speakerAttributedScoring.ts). Target: every reference turn kept. The
 *   same scores once more for the same recognised words aligned to the reference's own turns
 *   (its .rttm) instead of the diarization's: the alignment of real words alone;
 * - every recording: DER against its .rttm of the diarization stage alone (as eval:diarization
 *   scores it) and of the transcript's segments, words and speakers that came out, whether the
 *   transcript is attributed;
 * - the analysis (the built-in analyser) of the recognised telephone call beside the analysis of
 *   a transcript made from sample.stm's text and turns (`npx callscope analyze-transcript`), and
 *   what the analysis makes of each meeting's recognised text.
 *
 * The segmentation model and VAD are the configured ones, else ../shared/models' (see
 * benchSupport's modelsWithSharedFallback); EMBEDDING_MODEL and the rest as configured (env).
 * `--recordings telephone,ami-EN2003a` runs only those (the telephone call is always among them:
 * the STM scoring needs it);
 * `--outputs DIR` keeps every run's transcript and analysis as JSON in DIR (one file per model);
 * `--rescore DIR` scores the files a run kept there instead of running the pipeline again.
 * Needs the built CLI (the npm script builds first) and `npm run models:eval`. Exits 1 when
 * the target is missed.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import { loadConfig } from '../src/config/loadConfig.js';
import type { Transcript } from '../src/domain/transcripts/transcriptSchema.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { alignWordsToSpeakers } from '../src/pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio, type CleanedAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { parseRttm } from '../src/pipeline/diarization/scoring/rttm.js';
import { scoreDiarization } from '../src/pipeline/diarization/scoring/scoreDiarization.js';
import { buildTranscript } from '../src/pipeline/normalization/buildTranscript.js';
import type { SpeakerTurn } from '../src/pipeline/speechTypes.js';
import { transcribeWith, transcriptionSettingsFromConfig } from '../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { transcriptionPrompt, vocabularyTerms } from '../src/pipeline/transcription/transcriptionPrompt.js';
import { speechOptionsFromConfig } from '../src/processing/productionPipeline.js';
import { modelsWithSharedFallback } from './benchSupport.js';
import { loadEndToEndRecordings, type EndToEndRecording } from './evaluation/endToEndRecordings.js';
import { analysisDigest, digestDifferences, speakerAsShown, transcriptFacts, transcriptLines } from './evaluation/endToEndReport.js';
import { analyseWithCli, processThroughApi, processWithCli, startService, type PipelineOutput } from './evaluation/endToEndRuns.js';
import { scoreAgainstStm, type StmScore } from './evaluation/scoreAgainstStm.js';
import { wordErrors, type WordErrors } from './evaluation/speakerAttributedScoring.js';
import { parseStm } from './evaluation/stm.js';
import { normaliseEnglish } from './models/englishNormaliser.js';
import { requireEvalModel } from './models/evalModels.js';
import { requirePythonReference } from './models/pythonReference.js';

/** One model's runs: every recording's output from the CLI and from the API, by recording id. */
interface ModelRun {
  model: string;
  whisperFile: string;
  cli: Record<string, PipelineOutput>;
  api: Record<string, PipelineOutput>;
  /** The telephone call through `npx callscope process` without the user's and the contact's names (so whisper gets no prompt). */
  telephoneWithoutNames: PipelineOutput;
  /**
   * The telephone call's recognised words (with the names, as `process` transcribes them) aligned
   * to the reference's own turns (its .rttm) instead of the diarization's: the alignment scored
   * with the diarization's errors taken out. Absent from runs kept before it was added.
   */
  telephoneOnReferenceTurns?: Transcript;
}

const { values } = parseArgs({ options: { models: { type: 'string', default: 'whisper-tiny.en,whisper-base' }, recordings: { type: 'string' }, outputs: { type: 'string' }, rescore: { type: 'string' } } });
const modelIds = values.models!.split(',').map((id) => id.trim()).filter(Boolean);
// Before minutes of processing: the scoring needs the reference environment's normaliser.
await requirePythonReference();
const recordingIds = values.recordings?.split(',').map((id) => id.trim()).filter(Boolean);
const recordings = loadEndToEndRecordings().filter((recording) => recordingIds === undefined || recordingIds.includes(recording.id));
const telephone = recordings.find((recording) => recording.stm !== undefined);
if (!telephone) throw new Error('scripts/evaluation/endToEndRecordings.json has no recording with an STM reference');
const stm = parseStm(await readFile(telephone.stm!, 'utf8'));
const sharedModels = modelsWithSharedFallback();
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-end-to-end-'));
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env, SEGMENTATION_MODEL: sharedModels.SEGMENTATION_MODEL, VAD_MODEL: sharedModels.VAD_MODEL, ANALYSER: 'builtin', DATA_DIR: join(work, 'data'),
};
const config = loadConfig(baseEnv as Record<string, string | undefined>);
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');
let targetMissed = false;
/** Each recording's reference turns (its .rttm) and its audio as the clean-up stage made it: the same for every Whisper model. */
const referenceTurns = new Map<string, SpeakerTurn[]>();
const cleanedAudio = new Map<string, CleanedAudio>();

try {
  console.log(`eval:end-to-end: ${recordings.length} recordings, models ${modelIds.join(', ')}; segmentation ${basename(config.SEGMENTATION_MODEL)}, VAD ${basename(config.VAD_MODEL)}, `
    + `embedding ${existsSync(config.EMBEDDING_MODEL) ? basename(config.EMBEDDING_MODEL) : 'none'}, analyser builtin, language ${config.WHISPER_LANGUAGE}; Node ${process.version}, ${cpus().length} cores\n`);

  // The diarization stage alone on each recording, as eval:diarization scores it: the same for every Whisper model.
  const diarizationRows = [];
  const diarizationDer = new Map<string, number>();
  for (const recording of recordings) {
    const run = new LocalPipelineRun();
    const cleaned = await cleanAudio({ sourcePath: recording.audio, outputDir: join(work, `diarization-${recording.id}`), maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, run.contextFor('cleanup'));
    const diarization = await diarizeAudio(cleaned, speechOptionsFromConfig(config).diarization, run.contextFor('diarization'));
    const reference = parseRttm(await readFile(recording.rttm, 'utf8'));
    referenceTurns.set(recording.id, reference);
    cleanedAudio.set(recording.id, cleaned);
    const score = scoreDiarization(reference, diarization.turns);
    diarizationDer.set(recording.id, score.diarizationErrorRate);
    diarizationRows.push({ recording: recording.id, 'ref speakers': new Set(reference.map((turn) => turn.speaker)).size, found: diarization.speakerCount, 'missed %': (score.missed * 100).toFixed(1), 'false alarm %': (score.falseAlarm * 100).toFixed(1), 'confusion %': (score.confusion * 100).toFixed(1), 'DER %': (score.diarizationErrorRate * 100).toFixed(1) });
  }
  await threadResources.disposeAll();
  console.log('The diarization stage alone (the same for every Whisper model), DER against each .rttm as eval:diarization scores it:');
  console.table(diarizationRows);

  // The reference text through the text half of the pipeline, speakers as anonymous as diarization's.
  const referenceIds = new Map([...new Set(stm.map((segment) => segment.speaker))].map((speaker, index) => [speaker, `SPEAKER_${String(index).padStart(2, '0')}`]));
  const reference = await analyseWithCli('telephone-reference', {
    ...(telephone.userDisplayName ? { user: { displayName: telephone.userDisplayName } } : {}),
    metadata: telephone.metadata, language: 'en',
    segments: stm.map((segment) => ({ sourceSpeakerId: referenceIds.get(segment.speaker)!, startSeconds: segment.startSeconds, endSeconds: segment.endSeconds, text: segment.text })),
  }, baseEnv, work);
  const referenceSpeakerOf = (speaker: string) => reference.transcript.speakers.find((candidate) => candidate.sourceSpeakerId === referenceIds.get(speaker))?.speakerId;

  const summary = [];
  for (const modelId of modelIds) {
    const run = values.rescore ? await readModelRun(values.rescore, modelId) : await runModel(modelId, recordings);
    if (values.outputs) {
      await mkdir(values.outputs, { recursive: true });
      await writeFile(join(values.outputs, `${modelId}.json`), JSON.stringify(run, null, 2));
    }
    console.log(`\n═══ ${modelId} (${run.whisperFile}) ═══`);
    console.table(recordings.map((recording) => ({ recording: recording.id, 'CLI s': run.cli[recording.id]!.seconds.toFixed(1), 'API s': run.api[recording.id]!.seconds.toFixed(1) })));
    const differing = recordings.filter((recording) => !sameTranscript(run.cli[recording.id]!, run.api[recording.id]!));
    console.log(differing.length === 0
      ? `npx callscope process and the API gave the same transcript on all ${recordings.length} recordings.`
      : `npx callscope process and the API gave different transcripts on ${differing.map((recording) => recording.id).join(', ')} (below: each path scored on its own).`);
    for (const recording of differing) {
      const between = await wordsBetween(run.cli[recording.id]!, run.api[recording.id]!);
      console.log(`  ${recording.id}: the API's words against the CLI's, normalised: WER ${percent(between.rate)} (S/D/I ${between.substitutions}/${between.deletions}/${between.insertions} of ${between.referenceWords})`);
    }
    for (const recording of recordings) {
      const fields = digestDifferences(run.cli[recording.id]!.analysis, run.api[recording.id]!.analysis);
      if (fields.length > 0) console.log(`  ${recording.id}: the analyses differ in ${fields.join(', ')}`);
    }

    const scores: Record<'cli' | 'api', StmScore> = {
      cli: await scoreAgainstStm(run.cli[telephone.id]!.transcript, stm),
      api: await scoreAgainstStm(run.api[telephone.id]!.transcript, stm),
    };
    const withoutNames = await scoreAgainstStm(run.telephoneWithoutNames.transcript, stm);
    const paths = differing.some((recording) => recording.id === telephone.id) ? (['cli', 'api'] as const) : (['cli'] as const);
    console.log(`\nTelephone call against ${basename(telephone.stm!)} (${scores.cli.words.referenceWords} words, ${scores.cli.turns.length} turns), both sides through Whisper's English normaliser:`);
    for (const path of paths) {
      const score = scores[path];
      const recognisedTurns = score.turns.filter((turn) => turn.recognisedWords > 0);
      console.log(`  ${path === 'cli' ? 'npx callscope process' : 'API'}: WER ${percent(score.words.rate)} (S/D/I ${score.words.substitutions}/${score.words.deletions}/${score.words.insertions}), `
        + `cpWER ${percent(score.cpWer.rate)} (${score.cpWer.errors} errors), ${turnsKept(score)} `
        + `(${recognisedTurns.filter((turn) => turn.kept).length} of the ${recognisedTurns.length} with recognised words), the transcript's turns ${score.hypothesisTurns}`);
      for (const [speaker, speakerId] of Object.entries(score.cpWer.mapping)) console.log(`    ${speaker}'s words → ${speakerAsShown(run[path][telephone.id]!.transcript, speakerId)}`);
    }
    console.log(`  without the names (no --user-name, no contact: whisper gets no prompt): WER ${percent(withoutNames.words.rate)}, cpWER ${percent(withoutNames.cpWer.rate)}, `
      + `${turnsKept(withoutNames)}, the transcript's turns ${withoutNames.hypothesisTurns}`);
    const onReferenceTurns = run.telephoneOnReferenceTurns ? await scoreAgainstStm(run.telephoneOnReferenceTurns, stm) : undefined;
    if (onReferenceTurns) {
      console.log(`  the same recognised words aligned to ${basename(telephone.rttm)}'s turns instead of the diarization's (the alignment alone): cpWER ${percent(onReferenceTurns.cpWer.rate)}, `
        + `${turnsKept(onReferenceTurns)}, of which with no recognised word: ${onReferenceTurns.turns.flatMap((turn, index) => (turn.recognisedWords === 0 ? [index + 1] : [])).join(', ') || 'none'}`);
    }
    console.table(scores.cli.turns.map((turn, index) => ({
      turn: index + 1, speaker: turn.speaker, said: shortened(scores.cli.referenceWords.slice(turn.firstWord, turn.endWord).join(' '), 40), words: turn.endWord - turn.firstWord, recognised: turn.recognisedWords,
      'attributed to': Object.entries(turn.attributedTo).map(([speakerId, count]) => `${speakerId}×${count}`).join(' ') || '—',
      'paired speaker': turn.mappedSpeaker ?? '—', kept: turn.kept ? 'yes' : 'NO',
    })));
    console.log(transcriptLines(run.cli[telephone.id]!.transcript).map((line) => `    ${line}`).join('\n'));

    console.log('\nWhat came out (npx callscope process); DER against each .rttm:');
    console.table(recordings.map((recording) => {
      const { transcript } = run.cli[recording.id]!;
      const facts = transcriptFacts(transcript);
      const segmentTurns = transcript.segments.map((segment) => ({ speaker: segment.speakerId, startSeconds: segment.startSeconds, endSeconds: segment.endSeconds }));
      return {
        recording: recording.id, language: facts.language, words: facts.words, speakers: facts.speakers, segments: facts.segments,
        attributed: facts.attributed ? 'yes' : 'NO', 'confidence H/M/L/N': ['HIGH', 'MEDIUM', 'LOW', 'NONE'].map((level) => facts.confidences[level] ?? 0).join('/'),
        'DER % diarization': (diarizationDer.get(recording.id)! * 100).toFixed(1),
        'DER % segments': (scoreDiarization(referenceTurns.get(recording.id)!, segmentTurns).diarizationErrorRate * 100).toFixed(1),
      };
    }));

    console.log('\nAnalysis of the telephone call: the reference text (sample.stm\'s text and turns) | the recognised text (npx callscope process):');
    const recognised = run.cli[telephone.id]!;
    const recognisedDigest = new Map(analysisDigest(recognised.analysis));
    for (const [field, text] of analysisDigest(reference.analysis)) {
      const other = recognisedDigest.get(field)!;
      console.log(other === text ? `  ${field} (same): ${text}` : `  ${field}:\n    reference:  ${text}\n    recognised: ${other}`);
    }
    for (const speaker of referenceIds.keys()) {
      console.log(`  speaker ${speaker}: reference → ${speakerAsShown(reference.transcript, referenceSpeakerOf(speaker))}; recognised → ${speakerAsShown(recognised.transcript, scores.cli.cpWer.mapping[speaker])}`);
    }
    const differs = digestDifferences(reference.analysis, recognised.analysis);
    console.log(`  differs: ${differs.length > 0 ? differs.join(', ') : 'nothing'}`);

    console.log('\nAnalysis of the meetings\' recognised text (npx callscope process):');
    for (const recording of recordings.filter((candidate) => candidate !== telephone)) {
      const { transcript, analysis } = run.cli[recording.id]!;
      console.log(`  ${recording.id}: speakers ${transcript.speakers.map((speaker) => speakerAsShown(transcript, speaker.speakerId)).join(', ')}`);
      for (const [field, text] of analysisDigest(analysis)) console.log(`    ${field}: ${text}`);
    }

    const keptEverywhere = paths.every((path) => scores[path].turns.every((turn) => turn.kept));
    targetMissed ||= !keptEverywhere;
    summary.push({
      model: modelId, 'CLI = API': differing.length === 0 ? 'yes' : `no (${differing.length})`,
      'WER %': (scores.cli.words.rate * 100).toFixed(1), 'cpWER %': (scores.cli.cpWer.rate * 100).toFixed(1),
      'turns kept': `${scores.cli.turns.filter((turn) => turn.kept).length}/${scores.cli.turns.length}`, target: verdict(keptEverywhere),
      'turns kept on the reference turns': onReferenceTurns ? `${onReferenceTurns.turns.filter((turn) => turn.kept).length}/${onReferenceTurns.turns.length}` : '—',
    });
  }
  console.log('\nSummary (telephone call, npx callscope process):');
  console.table(summary);
  console.log(`Target: on the telephone call, the transcript from real recognised words keeps every speaker turn of the reference: ${verdict(!targetMissed)}`);
  process.exitCode = targetMissed ? 1 : 0;
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Every recording through `npx callscope process`, then through the API of a service started for the model. */
async function runModel(modelId: string, all: readonly EndToEndRecording[]): Promise<ModelRun> {
  const whisperGgml = requireEvalModel(modelId).whisperGgml;
  if (whisperGgml === undefined) throw new Error(`${modelId} has no whisper.cpp model (role whisperGgml): it is not a Whisper model`);
  const env = { ...baseEnv, WHISPER_MODEL: whisperGgml, DATA_DIR: join(work, `data-${modelId}`) };
  const cli: ModelRun['cli'] = {};
  for (const recording of all) {
    cli[recording.id] = await processWithCli(recording, env, work);
    console.log(`${modelId}: ${recording.id} through npx callscope process in ${cli[recording.id]!.seconds.toFixed(1)} s`);
  }
  const withoutNames = { id: `${telephone!.id}-without-names`, audio: telephone!.audio, rttm: telephone!.rttm, metadata: { recordedAt: telephone!.metadata.recordedAt } };
  const telephoneWithoutNames = await processWithCli(withoutNames, env, work);
  console.log(`${modelId}: ${withoutNames.id} through npx callscope process in ${telephoneWithoutNames.seconds.toFixed(1)} s`);
  const telephoneOnReferenceTurns = await alignedToReferenceTurns(telephone!, cleanedAudio.get(telephone!.id)!, referenceTurns.get(telephone!.id)!, env);
  const run: ModelRun = { model: modelId, whisperFile: basename(whisperGgml), cli, api: {}, telephoneWithoutNames, telephoneOnReferenceTurns };
  const service = await startService(env);
  try {
    for (const recording of all) {
      run.api[recording.id] = await processThroughApi(service, recording);
      console.log(`${modelId}: ${recording.id} through the API in ${run.api[recording.id]!.seconds.toFixed(1)} s`);
    }
  } finally {
    await service.stop();
  }
  return run;
}

/**
 * `recording` (`cleaned` by the clean-up stage) transcribed as `npx callscope process` does it (the
 * same settings and names prompt), its words aligned to the reference's turns (its .rttm) by the
 * pipeline's own alignment and built into a transcript: what the alignment makes of real words
 * when the turns are right. The transcription runs again here: `process` hands out the
 * transcript, not the words with their times.
 */
async function alignedToReferenceTurns(recording: EndToEndRecording, cleaned: CleanedAudio, referenceTurns: readonly SpeakerTurn[], env: NodeJS.ProcessEnv): Promise<Transcript> {
  const modelConfig = loadConfig(env as Record<string, string | undefined>);
  const run = new LocalPipelineRun();
  const workDir = join(work, `reference-turns-${basename(modelConfig.WHISPER_MODEL)}`);
  await mkdir(workDir, { recursive: true });
  const prompt = transcriptionPrompt({ userDisplayName: recording.userDisplayName, contactName: recording.metadata.contactName, vocabulary: vocabularyTerms(modelConfig.TRANSCRIPTION_VOCABULARY) });
  const transcription = await transcribeWith(transcriptionSettingsFromConfig(modelConfig), { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds, prompt }, workDir, run.contextFor('transcription'));
  const turns = referenceTurns.toSorted((a, b) => a.startSeconds - b.startSeconds);
  return buildTranscript({
    callId: `${recording.id}-reference-turns`, createdAt: Date.now(), durationSeconds: cleaned.durationSeconds,
    words: alignWordsToSpeakers(transcription.words, turns),
    diarization: { provider: 'reference', model: basename(recording.rttm), speakerCount: new Set(turns.map((turn) => turn.speaker)).size },
    transcription,
  });
}

async function readModelRun(directory: string, modelId: string): Promise<ModelRun> {
  return JSON.parse(await readFile(join(directory, `${modelId}.json`), 'utf8')) as ModelRun;
}

/** `turns kept 7/9 (lost: 1, 9)`, turns numbered from 1. */
function turnsKept(score: StmScore): string {
  const lost = score.turns.flatMap((turn, index) => (turn.kept ? [] : [index + 1]));
  return `turns kept ${score.turns.length - lost.length}/${score.turns.length}${lost.length > 0 ? ` (lost: ${lost.join(', ')})` : ''}`;
}

function shortened(text: string, characters: number): string {
  return text.length > characters ? `${text.slice(0, characters - 1)}…` : text;
}

/** The word errors of `second`'s text against `first`'s, both through Whisper's English normaliser. */
async function wordsBetween(first: PipelineOutput, second: PipelineOutput): Promise<WordErrors> {
  const text = ({ transcript }: PipelineOutput) => transcript.segments.map((segment) => segment.text).join(' ');
  const [firstWords, secondWords] = await normaliseEnglish([text(first), text(second)]);
  return wordErrors(firstWords!, secondWords!);
}

/** The same words, times, speakers and names: everything but the call's id and creation time, and the provenance. */
function sameTranscript(first: PipelineOutput, second: PipelineOutput): boolean {
  const content = ({ transcript }: PipelineOutput) => JSON.stringify([transcript.language, transcript.cleanText, transcript.speakers, transcript.segments, transcript.speakerResolution]);
  return content(first) === content(second);
}
