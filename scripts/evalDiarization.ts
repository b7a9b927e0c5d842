/**
 * `npm run eval:diarization`: the diarization stage on real recordings with ground truth.
 * - ../shared/audio/pyannote-sample/sample.wav against sample.rttm: missed speech, false alarm,
 *   speaker confusion and DER (no collar, overlapped speech scored). Target: DER ≤ 15 %.
 * - The same call looped to 5 minutes: speed in × real time (diarization only, model loaded).
 *   Target: ≥ 30×.
 * - ../shared/audio/jfk/jfk.wav: one speaker. Target: exactly 1.
 * Exits 1 when a target is missed.
 *
 * Models (env): SEGMENTATION_MODEL (defaults to ../shared/models/pyannote-segmentation-3.0.fp16.onnx),
 * EMBEDDING_MODEL (optional; without it speakers are linked across windows).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { workerTaskImplementations } from '../src/infrastructure/workers/workerTasks.js';
import { cleanAudio, type CleanedAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { parseRttm } from '../src/pipeline/diarization/scoring/rttm.js';
import { scoreDiarization } from '../src/pipeline/diarization/scoring/scoreDiarization.js';
import type { StageContext } from '../src/pipeline/StageContext.js';

const run = promisify(execFile);
const shared = (path: string) => resolve(packageRoot, '../shared', path);
const models = {
  segmentationModel: process.env.SEGMENTATION_MODEL || shared('models/pyannote-segmentation-3.0.fp16.onnx'),
  embeddingModel: process.env.EMBEDDING_MODEL || undefined,
};
const context: StageContext = {
  signal: new AbortController().signal,
  reportProgress: () => undefined,
  runInWorker: (name, input) => workerTaskImplementations[name](input),
};
const percent = (share: number) => `${(share * 100).toFixed(2)} %`;
const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');

const work = await mkdtemp(join(tmpdir(), 'callscope-eval-diarization-'));
try {
  const clean = async (sourcePath: string, name: string): Promise<CleanedAudio> =>
    cleanAudio({ sourcePath, outputDir: join(work, name), maxDurationSeconds: 7200 }, context);
  console.log(`Segmentation model: ${models.segmentationModel}`);
  console.log(`Embedding model: ${models.embeddingModel && existsSync(models.embeddingModel) ? models.embeddingModel : 'none (window linking)'}\n`);

  const sample = await clean(shared('audio/pyannote-sample/sample.wav'), 'sample');
  const sampleStarted = performance.now();
  const diarization = await diarizeAudio(sample, models, context);
  const sampleSeconds = (performance.now() - sampleStarted) / 1000;
  const reference = parseRttm(await readFile(shared('audio/pyannote-sample/sample.rttm'), 'utf8'));
  const score = scoreDiarization(reference, diarization.turns);
  const derMet = score.diarizationErrorRate <= 0.15;
  console.log(`sample.wav (${sample.durationSeconds.toFixed(1)} s, ${reference.length} reference turns): ${diarization.speakerCount} speakers, ${diarization.turns.length} turns, by ${diarization.method}`);
  console.log(`  missed speech  ${percent(score.missed)}  (${score.missedSeconds.toFixed(2)} s)`);
  console.log(`  false alarm    ${percent(score.falseAlarm)}  (${score.falseAlarmSeconds.toFixed(2)} s)`);
  console.log(`  confusion      ${percent(score.confusion)}  (${score.confusionSeconds.toFixed(2)} s)`);
  console.log(`  DER            ${percent(score.diarizationErrorRate)}  of ${score.referenceSeconds.toFixed(2)} s of reference speech (no collar, overlap scored)`);
  console.log(`  time           ${sampleSeconds.toFixed(2)} s including the model's first load`);

  // Five minutes: the sample call looped 10 times.
  const looped = join(work, 'sample-5min.wav');
  await run(resolveFfmpegBinaries().ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-stream_loop', '9', '-i', shared('audio/pyannote-sample/sample.wav'), '-c', 'copy', looped]);
  const long = await clean(looped, 'long');
  const longStarted = performance.now();
  const longDiarization = await diarizeAudio(long, models, context);
  const speed = long.durationSeconds / ((performance.now() - longStarted) / 1000);
  const speedMet = speed >= 30;
  // The reference repeated every 30 s; not a target, but it shows what a longer call does to the speaker count.
  const loopedReference = Array.from({ length: 10 }, (_, loop) => reference.map((turn) => ({ ...turn, startSeconds: turn.startSeconds + 30 * loop, endSeconds: turn.endSeconds + 30 * loop }))).flat();
  const longScore = scoreDiarization(loopedReference, longDiarization.turns);
  const hinted = await diarizeAudio(long, { ...models, speakerCount: 2 }, context);
  const hintedScore = scoreDiarization(loopedReference, hinted.turns);
  console.log(`\nsample.wav × 10 (${long.durationSeconds.toFixed(0)} s): ${speed.toFixed(1)} × real time`);
  console.log(`  ${longDiarization.speakerCount} speakers, DER ${percent(longScore.diarizationErrorRate)} (confusion ${percent(longScore.confusion)})`);
  console.log(`  with --speakers 2: ${hinted.speakerCount} speakers, DER ${percent(hintedScore.diarizationErrorRate)} (confusion ${percent(hintedScore.confusion)})`);

  const jfk = await diarizeAudio(await clean(shared('audio/jfk/jfk.wav'), 'jfk'), models, context);
  const oneSpeakerMet = jfk.speakerCount === 1;
  console.log(`\njfk.wav: ${jfk.speakerCount} speaker(s), ${jfk.turns.length} turns`);

  console.log('\nTargets:');
  console.log(`  DER ≤ 15 % on sample.wav:        ${percent(score.diarizationErrorRate)}  ${verdict(derMet)}`);
  console.log(`  ≥ 30 × real time (5 min call):   ${speed.toFixed(1)} ×  ${verdict(speedMet)}`);
  console.log(`  jfk.wav is one speaker:          ${jfk.speakerCount}  ${verdict(oneSpeakerMet)}`);
  process.exitCode = derMet && speedMet && oneSpeakerMet ? 0 : 1;
} finally {
  await rm(work, { recursive: true, force: true });
  await threadResources.disposeAll();
}
