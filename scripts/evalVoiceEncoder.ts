/**
 * `npm run eval:voice-encoder`: proves the project's GE2E voice encoder (the ONNX conversion of
 * src/infrastructure/models/conversion/ge2eCheckpointToOnnx.ts and the TypeScript front end of
 * src/pipeline/diarization/models/ge2eFrontEnd.ts) against Resemblyzer's own Python on real
 * speech: ten LibriSpeech utterances of ten different speakers (../shared/audio/librispeech: the
 * first utterance of each test-other speaker, then the first train-clean-100 ones in file order),
 * each decoded once to 16 kHz mono float32 and embedded by both sides from the same samples.
 * Prints the cosine similarity per utterance; target: every one ≥ 0.999 (exit 1 otherwise).
 *
 * Needs `npm run models:eval -- --only ge2e-resemblyzer,voice-encoder-reference` (the converted
 * model, and resemblyzer with torch in EVAL_MODELS_DIR/venv-voice-encoder: about 5 GB, so this is
 * not part of CI).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { Ge2eEncoder } from '../src/pipeline/diarization/models/Ge2eEncoder.js';
import { evalModelsDir, requireEvalModelFile } from './models/evalModels.js';
import { voiceEncoderEnvironment } from './models/pythonReference.js';
import { runPythonReference } from './models/runPythonReference.js';

const minimumCosine = 0.999;
const utterances = 10;

const directory = evalModelsDir();
const onnxPath = resolve(directory, requireEvalModelFile('ge2e-resemblyzer', 'voiceEncoderOnnx', directory));
const checkpointPath = resolve(directory, requireEvalModelFile('ge2e-resemblyzer', 'ge2eCheckpoint', directory));
const librispeech = resolve(packageRoot, '../shared/audio/librispeech');
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-voice-encoder-'));
try {
  const recordings = await chosenUtterances();
  const { ffmpegPath } = resolveFfmpegBinaries();
  for (const recording of recordings) {
    const decoded = spawnSync(ffmpegPath, ['-v', 'error', '-y', '-i', recording.flac, '-ar', '16000', '-ac', '1', '-f', 'f32le', recording.path]);
    if (decoded.status !== 0) throw new Error(`ffmpeg could not decode ${recording.flac}: ${decoded.stderr.toString().trim()}`);
  }

  const reference = JSON.parse(await runPythonReference('resemblyzerReference.py', {
    checkpoint: checkpointPath, recordings: recordings.map(({ id, path }) => ({ id, path })),
  }, directory, voiceEncoderEnvironment)) as Record<string, number[]>;

  const encoder = await Ge2eEncoder.create(onnxPath);
  console.log(`eval:voice-encoder: ${basename(onnxPath)} and its front end against resemblyzer 0.1.4 (torch) on ${recordings.length} LibriSpeech utterances`);
  const cosines: number[] = [];
  for (const recording of recordings) {
    const bytes = readFileSync(recording.path);
    const samples = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const started = performance.now();
    const ours = await encoder.embedSpeech(samples);
    const milliseconds = performance.now() - started;
    const theirs = reference[recording.id]!;
    const cosine = ours.reduce((sum, value, index) => sum + value * theirs[index]!, 0);
    cosines.push(cosine);
    console.log(`  ${recording.id.padEnd(44)} ${(samples.length / 16000).toFixed(1).padStart(5)} s  cosine ${cosine.toFixed(7)}  (${milliseconds.toFixed(0)} ms)`);
  }
  await encoder.dispose();
  const lowest = Math.min(...cosines);
  const met = lowest >= minimumCosine;
  console.log(`target: cosine ≥ ${minimumCosine} on every utterance: lowest ${lowest.toFixed(7)}: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Ten utterances of ten speakers: each test-other speaker's first, then train-clean-100's first files. */
async function chosenUtterances(): Promise<{ id: string; flac: string; path: string }[]> {
  const testOther = join(librispeech, 'test-other');
  const firstOfEach = await Promise.all((await readdir(testOther)).sort().map(async (speaker) => join('test-other', speaker, (await readdir(join(testOther, speaker))).filter((name) => name.endsWith('.flac')).sort()[0]!)));
  const trainClean = (await readdir(join(librispeech, 'train-clean-100'))).filter((name) => name.endsWith('.flac')).sort().map((name) => join('train-clean-100', name));
  return [...firstOfEach, ...trainClean].slice(0, utterances).map((file) => ({
    id: file, flac: join(librispeech, file), path: join(work, `${basename(file, '.flac')}.f32`),
  }));
}
