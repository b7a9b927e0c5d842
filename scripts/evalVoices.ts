/**
 * `npm run eval:voices`: how well the installed speaker encoder tells voices apart, the way the
 * product compares them (a voice profile's sample against a call's speaker, `callscope voice
 * compare`): every LibriSpeech utterance of ../shared/audio/librispeech (186 of 132 readers) is
 * embedded as embedVoices embeds a voice (quiet frames left out, 6 s pieces averaged), and every
 * pair of utterances is scored by cosine similarity: pairs of one reader are targets, pairs of two
 * readers impostors.
 *
 * Printed: the equal error rate (where the share of impostor pairs at or above a threshold equals
 * the share of target pairs below it) and its threshold, for the tuning half of the readers
 * (scripts/audio/libriSpeechConversations.ts's split: no voice in both), for the held-out half,
 * and the held-out half's error rates at the tuning half's threshold; then the thresholds at which
 * impostors pass 1 % and 0.1 % of the time on the tuning half, and the held-out error rates at the
 * configured voice-match thresholds (SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD and _HIGH_). Target: equal error rate ≤ 5 %
 * on the held-out half (exit 1 otherwise).
 *
 * Model (env): EMBEDDING_MODEL, else the GE2E encoder of `npm run models:eval -- --only
 * ge2e-resemblyzer` in EVAL_MODELS_DIR.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { loadConfig } from '../src/config/loadConfig.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { speakerEncoderKindOf } from '../src/pipeline/diarization/models/SpeakerEncoder.js';
import { pcm16MonoWav } from '../src/pipeline/signal/pcm16Wav.js';
import { embedVoices } from '../src/pipeline/voice/embedVoices.js';
import { readLibriSpeechUtterances, speakerHalves, type EvaluationHalf } from './audio/libriSpeechConversations.js';
import { decodeMono16k } from './audio/speechRegions.js';
import { evaluationSpeakerEncoder } from './models/evalModels.js';

const TARGET_EER = 0.05;
const librispeech = resolve(packageRoot, '../shared/audio/librispeech');
const modelPath = evaluationSpeakerEncoder();
if (!modelPath) {
  console.error('No speaker encoder: set EMBEDDING_MODEL, or run `npm run models:eval -- --only ge2e-resemblyzer`.');
  process.exit(1);
}

const work = await mkdtemp(join(tmpdir(), 'callscope-eval-voices-'));
try {
  const utterances = readLibriSpeechUtterances(librispeech);
  const halves = speakerHalves(utterances);
  console.log(`eval:voices: ${basename(modelPath)} (kind ${await speakerEncoderKindOf(modelPath)}) on ${utterances.length} LibriSpeech utterances of ${halves.size} readers`);
  const started = performance.now();
  const embedded: { speaker: string; half: EvaluationHalf; vector: Float32Array }[] = [];
  let audioSeconds = 0;
  for (const utterance of utterances) {
    const samples = await decodeMono16k(utterance.path);
    audioSeconds += samples.length / 16_000;
    const wavPath = join(work, 'utterance.wav');
    await writeFile(wavPath, pcm16MonoWav(samples, 16_000));
    const { voices } = await embedVoices({ audioPath: wavPath, embeddingModelPath: modelPath, voices: { sample: [{ startSeconds: 0, endSeconds: samples.length / 16_000 }] } });
    if (voices.sample) embedded.push({ speaker: utterance.speaker, half: halves.get(utterance.speaker)!, vector: voices.sample.vector });
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`embedded ${embedded.length} of ${utterances.length} (the rest had under 2 s of speech) in ${seconds.toFixed(1)} s: ${(audioSeconds / seconds).toFixed(0)}× real time, decoding included\n`);

  const pairsOf = (half?: EvaluationHalf) => {
    const chosen = embedded.filter((entry) => half === undefined || entry.half === half);
    const targets: number[] = [];
    const impostors: number[] = [];
    for (let first = 0; first < chosen.length; first++) {
      for (let second = first + 1; second < chosen.length; second++) {
        const similarity = cosine(chosen[first]!.vector, chosen[second]!.vector);
        (chosen[first]!.speaker === chosen[second]!.speaker ? targets : impostors).push(similarity);
      }
    }
    return { targets, impostors };
  };
  const tuning = pairsOf('tuning');
  const heldOut = pairsOf('held-out');
  const all = pairsOf();
  const tuningEer = equalErrorRate(tuning);
  const heldOutEer = equalErrorRate(heldOut);
  const allEer = equalErrorRate(all);
  const row = (name: string, pairs: { targets: number[]; impostors: number[] }, eer: { rate: number; threshold: number }) =>
    console.log(`${name.padEnd(10)} ${String(pairs.targets.length).padStart(5)} target pairs, ${String(pairs.impostors.length).padStart(6)} impostor pairs: equal error rate ${(eer.rate * 100).toFixed(2)} % at similarity ${eer.threshold.toFixed(3)}`);
  row('tuning', tuning, tuningEer);
  row('held-out', heldOut, heldOutEer);
  row('all', all, allEer);
  const atTuning = errorRatesAt(heldOut, tuningEer.threshold);
  console.log(`held-out at the tuning threshold ${tuningEer.threshold.toFixed(3)}: impostors passed ${(atTuning.falseAcceptance * 100).toFixed(2)} %, targets refused ${(atTuning.falseRejection * 100).toFixed(2)} %`);
  for (const share of [0.01, 0.001]) {
    const threshold = thresholdForFalseAcceptance(tuning.impostors, share);
    const heldOutRates = errorRatesAt(heldOut, threshold);
    console.log(`impostors passing ${share * 100} % of the time on the tuning half: similarity ${threshold.toFixed(3)}; there held-out targets refused ${(heldOutRates.falseRejection * 100).toFixed(1)} %, impostors passed ${(heldOutRates.falseAcceptance * 100).toFixed(2)} %`);
  }
  const config = loadConfig();
  for (const [name, threshold] of [['MEDIUM (a match)', config.SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD], ['HIGH', config.SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD]] as const) {
    const rates = errorRatesAt(heldOut, threshold);
    console.log(`held-out at the voice-match threshold ${name} ${threshold}: impostors passed ${(rates.falseAcceptance * 100).toFixed(2)} %, targets refused ${(rates.falseRejection * 100).toFixed(1)} %`);
  }
  const met = heldOutEer.rate <= TARGET_EER;
  console.log(`\ntarget: equal error rate ≤ ${TARGET_EER * 100} % on the held-out half: ${(heldOutEer.rate * 100).toFixed(2)} %: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await rm(work, { recursive: true, force: true });
  await threadResources.disposeAll();
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let axis = 0; axis < a.length; axis++) dot += a[axis]! * b[axis]!;
  return dot;
}

/** Shares of impostors at or above `threshold` and of targets below it. */
function errorRatesAt(pairs: { targets: number[]; impostors: number[] }, threshold: number): { falseAcceptance: number; falseRejection: number } {
  return {
    falseAcceptance: pairs.impostors.filter((similarity) => similarity >= threshold).length / pairs.impostors.length,
    falseRejection: pairs.targets.filter((similarity) => similarity < threshold).length / pairs.targets.length,
  };
}

/** The threshold among the scores where false acceptance and false rejection are closest, and their mean there. */
function equalErrorRate(pairs: { targets: number[]; impostors: number[] }): { rate: number; threshold: number } {
  let best = { gap: Infinity, rate: 1, threshold: 0 };
  for (const threshold of [...pairs.targets, ...pairs.impostors].sort((a, b) => a - b)) {
    const { falseAcceptance, falseRejection } = errorRatesAt(pairs, threshold);
    const gap = Math.abs(falseAcceptance - falseRejection);
    if (gap < best.gap) best = { gap, rate: (falseAcceptance + falseRejection) / 2, threshold };
  }
  return { rate: best.rate, threshold: best.threshold };
}

/** The lowest threshold at which at most `share` of the impostor pairs pass. */
function thresholdForFalseAcceptance(impostors: readonly number[], share: number): number {
  const sorted = [...impostors].sort((a, b) => b - a);
  const allowed = Math.floor(share * sorted.length);
  return (sorted[allowed] ?? -1) + 1e-6;
}
