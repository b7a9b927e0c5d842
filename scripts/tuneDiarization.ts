/**
 * `npm run tune:diarization [-- --thresholds 0.64,0.66,0.68] [--per-size 4] [--interjections 0]`: how the GE2E path's
 * clustering threshold does on the tuning half of the LibriSpeech conversations only: the six
 * of eval:diarization's tuning half and `--per-size` more of each size from 2 to 6 speakers
 * (scripts/audio/libriSpeechConversations.ts's `extraTuningPlans`; seeded, so the same calls
 * every run), and with `--interjections N` N calls each in which a stranger or a participant
 * talks over a turn (`interjectionPlans`: how overlapped speech is attributed). For each
 * threshold: on how many calls the speaker count is exact (and the wrong ones), the pooled
 * speaker confusion and the mean DER (and the interjected calls' own count and pooled DER). The held-out half is never touched: its
 * figures are eval:diarization's to report. About 1 minute per threshold for 26 calls on 2 cores.
 *
 * Models (env): SEGMENTATION_MODEL (defaults to ../shared/models' pyannote segmentation),
 * EMBEDDING_MODEL (defaults to the GE2E encoder of `npm run models:eval -- --only ge2e-resemblyzer`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { defaultClusteringThresholds } from '../src/pipeline/diarization/diarizationOptions.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { scoreDiarization } from '../src/pipeline/diarization/scoring/scoreDiarization.js';
import {
  type ConversationPlan,
  extraTuningPlans,
  type InterjectionPlan,
  interjectionPlans,
  libriSpeechConversationPlans,
  spliceInterjectedConversation,
  spliceLibriSpeechConversation,
} from './audio/libriSpeechConversations.js';
import { evaluationSpeakerEncoder } from './models/evalModels.js';

const { values } = parseArgs({ options: { thresholds: { type: 'string' }, 'per-size': { type: 'string', default: '4' }, interjections: { type: 'string', default: '0' } } });
const thresholds = (values.thresholds ?? String(defaultClusteringThresholds.ge2e)).split(',').map(Number);
const perSize = Number(values['per-size']);
const interjections = Number(values.interjections);
if (thresholds.some((threshold) => !(threshold > 0)) || [perSize, interjections].some((count) => !Number.isInteger(count) || count < 0)) {
  console.error('--thresholds takes positive numbers separated by commas, --per-size and --interjections whole numbers');
  process.exit(2);
}
const shared = (path: string) => resolve(packageRoot, '../shared', path);
const segmentationModel = process.env.SEGMENTATION_MODEL || shared('models/pyannote-segmentation-3.0.fp16.onnx');
const embeddingModel = evaluationSpeakerEncoder();
if (!embeddingModel) {
  console.error('No speaker encoder: set EMBEDDING_MODEL, or run `npm run models:eval -- --only ge2e-resemblyzer`.');
  process.exit(1);
}
const context = inProcessStageContext();

const plans: (ConversationPlan | InterjectionPlan)[] = [...libriSpeechConversationPlans.filter((plan) => plan.half === 'tuning'), ...extraTuningPlans(perSize), ...interjectionPlans(interjections)];
const work = await mkdtemp(join(tmpdir(), 'callscope-tune-diarization-'));
try {
  const calls = [];
  for (const plan of plans) {
    const conversation = 'interjection' in plan
      ? await spliceInterjectedConversation(shared('audio/librispeech'), plan, join(work, `${plan.seed}.wav`))
      : await spliceLibriSpeechConversation(shared('audio/librispeech'), plan, join(work, `${plan.seed}.wav`));
    const cleaned = await cleanAudio({ sourcePath: conversation.path, outputDir: join(work, `cleaned-${plan.seed}`), maxDurationSeconds: 3600 }, context);
    calls.push({ plan, conversation, cleaned, speakers: new Set(conversation.turns.map((turn) => turn.speaker)).size });
  }
  console.log(`${calls.length} tuning-half conversations; embedding model ${embeddingModel}`);
  for (const threshold of thresholds) {
    let exact = 0;
    let confusionSeconds = 0;
    let referenceSeconds = 0;
    let summedDer = 0;
    const wrong: string[] = [];
    let interjectedExact = 0;
    let interjectedErrorSeconds = 0;
    let interjectedReferenceSeconds = 0;
    for (const { plan, conversation, cleaned, speakers } of calls) {
      const diarization = await diarizeAudio(cleaned, { segmentationModel, embeddingModel, clusteringThreshold: threshold }, context);
      const score = scoreDiarization(conversation.turns, diarization.turns);
      const countExact = diarization.speakerCount === speakers;
      if (countExact) exact += 1;
      else wrong.push(`${plan.name} (seed ${plan.seed}): ${diarization.speakerCount} of ${speakers}`);
      if ('interjection' in plan) {
        interjectedExact += Number(countExact);
        interjectedErrorSeconds += score.diarizationErrorRate * score.referenceSeconds;
        interjectedReferenceSeconds += score.referenceSeconds;
      }
      confusionSeconds += score.confusionSeconds;
      referenceSeconds += score.referenceSeconds;
      summedDer += score.diarizationErrorRate;
    }
    console.log(`threshold ${threshold}: speaker count exact on ${exact} of ${calls.length}, confusion ${(100 * confusionSeconds / referenceSeconds).toFixed(2)} % pooled, mean DER ${(100 * summedDer / calls.length).toFixed(1)} %`);
    if (interjections > 0) console.log(`  of them with an interjection talked over a turn: exact on ${interjectedExact} of ${2 * interjections}, DER ${(100 * interjectedErrorSeconds / interjectedReferenceSeconds).toFixed(2)} % pooled`);
    for (const line of wrong) console.log(`  wrong: ${line}`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
