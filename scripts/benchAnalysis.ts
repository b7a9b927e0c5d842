/**
 * `npm run bench:analysis -- [--analyser builtin|llm|hybrid] [--model FILE.gguf] [--minutes N] [--context-size N]`:
 * one long call's analysis, timed, with the process's peak memory: the issue's "a 2-hour call's
 * analysis completes within 1.5 GB" and "≤ 20 s of analysis per 10 minutes of call on 2 cores".
 *
 * The call is the evaluation's scripted calls (scripts/evaluation/evaluationCalls.ts) one after
 * another, their times shifted, until it lasts `--minutes` (default 120): real conversational
 * lines with their action items, as long as the service accepts (two speakers, the first call's
 * user and metadata). It goes the way `callscope analyze-transcript` goes: speaker resolution,
 * then `analyseCall` with the analyser the service would build for `ANALYSER=--analyser` (default
 * `hybrid`) and `LLM_MODEL=--model` (else the environment's `LLM_MODEL`) on the CPU, with the
 * product's defaults otherwise (4096-token context unless `--context-size`, half the cores, the
 * model's generations in this process: what a worker thread holds). Prints the wall time, the
 * seconds per 10 minutes of call, the model's questions (chunks or hybrid questions) and the
 * process's peak resident memory. Run it on a quiet machine.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/loadConfig.js';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { analyseCall } from '../src/pipeline/analysis/analyseCall.js';
import { selectAnalyser } from '../src/pipeline/analysis/selectAnalyser.js';
import type { DiarizedSegment } from '../src/pipeline/normalization/diarizedTranscriptInput.js';
import { transcriptFromSegments } from '../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../src/pipeline/speakers/resolveSpeakers.js';
import { evaluationCalls } from './evaluation/evaluationCalls.js';

const usage = 'usage: npm run bench:analysis -- [--analyser builtin|llm|hybrid] [--model FILE.gguf] [--minutes N] [--context-size N]';
const { values } = parseArgs({
  options: {
    analyser: { type: 'string', default: 'hybrid' },
    model: { type: 'string' },
    minutes: { type: 'string', default: '120' },
    'context-size': { type: 'string' },
  },
});
const analyserName = values.analyser as 'builtin' | 'llm' | 'hybrid';
const modelPath = values.model ?? process.env.LLM_MODEL;
const minutes = Number(values.minutes);
const contextSize = values['context-size'];
if (!['builtin', 'llm', 'hybrid'].includes(analyserName) || (analyserName !== 'builtin' && !modelPath) || !(minutes > 0)) {
  console.error(`--analyser is builtin, llm or hybrid (the last two need --model or LLM_MODEL), --minutes a positive number\n${usage}`);
  process.exit(2);
}

/** The evaluation calls' lines, one call after another with a 2-second gap, up to `seconds`. */
function longCallSegments(seconds: number): DiarizedSegment[] {
  const segments: DiarizedSegment[] = [];
  let offset = 0;
  for (let round = 0; offset < seconds; round += 1) {
    for (const call of evaluationCalls) {
      for (const segment of call.input.segments) {
        if (offset + segment.endSeconds > seconds) return segments;
        segments.push({ ...segment, startSeconds: offset + segment.startSeconds, endSeconds: offset + segment.endSeconds });
      }
      offset = segments.at(-1)!.endSeconds + 2;
    }
  }
  return segments;
}

const [first] = evaluationCalls;
const recordedAt = Date.parse(first!.recordedAt);
const metadata = first!.input.metadata ?? {};
const userDisplayName = first!.input.user?.displayName;
const segments = longCallSegments(minutes * 60);
const transcript = resolveSpeakers(
  transcriptFromSegments({ ...first!.input, segments }, { callId: '00000000-0000-4000-8000-00000000b0a1', createdAt: recordedAt }),
  { metadata, ...(userDisplayName ? { userDisplayName } : {}) },
);
const callSeconds = segments.at(-1)!.endSeconds;
const words = segments.reduce((total, segment) => total + segment.text.split(/\s+/u).length, 0);

const analyser = selectAnalyser({
  ...loadConfig({}),
  ANALYSER: analyserName,
  ...(modelPath ? { LLM_MODEL: modelPath } : {}),
  GPU: 'off',
  ...(contextSize !== undefined ? { LLM_CONTEXT_SIZE: Number(contextSize) } : {}),
});
const context = inProcessStageContext();
let questions = 0;
const runInWorker = context.runInWorker.bind(context);
context.runInWorker = ((name, input) => {
  questions += 1;
  return runInWorker(name, input);
}) as typeof context.runInWorker;

console.log(`bench:analysis: ${analyserName}${modelPath && analyserName !== 'builtin' ? ` with ${basename(modelPath)}` : ''} on a call of ${(callSeconds / 60).toFixed(1)} minutes (${segments.length} segments, ${words} words)`);
const started = performance.now();
let analysed: Awaited<ReturnType<typeof analyseCall>>;
try {
  analysed = await analyseCall({ transcript, metadata, recordedAt, timeZone: first!.timeZone }, analyser, context);
} finally {
  await threadResources.disposeAll();
}
const seconds = (performance.now() - started) / 1000;
const peakMegabytes = process.resourceUsage().maxRSS / 1024;
console.log(`  analysis               ${seconds.toFixed(1)} s (model loading included), ${(seconds / (callSeconds / 600)).toFixed(1)} s per 10 minutes of call (target ≤ 20 s)`);
console.log(`  model questions        ${questions} (chunks for llm; items and the headline for hybrid)`);
console.log(`  action items           ${analysed.actionItems.length}; grounding violations ${analysed.grounding.violationsBefore.length} before the filter, ${analysed.grounding.violationsAfter.length} after`);
console.log(`  peak resident memory   ${Math.round(peakMegabytes)} MB (target ≤ 1536 MB for a 2-hour call)`);
