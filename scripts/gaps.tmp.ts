import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { workerTaskImplementations } from '../src/infrastructure/workers/workerTasks.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { readWavBlocks } from '../src/pipeline/diarization/inference/readWavBlocks.js';
import { spliceConversation } from './audio/spliceConversation.js';
const shared = (p: string) => resolve(packageRoot, '../shared', p);
const work = await mkdtemp(join(tmpdir(), 'gaps-'));
const context = { signal: new AbortController().signal, reportProgress: () => undefined, runInWorker: (n: never, i: never) => (workerTaskImplementations as any)[n](i) } as any;
const spliced = await spliceConversation({ outputPath: join(work, 's.wav'), voices: [
  { label: 'speaker1', recordings: [shared('audio/speakers/speaker1_a_en_16k.wav'), shared('audio/speakers/speaker1_b_en_16k.wav')] },
  { label: 'speaker2', recordings: [shared('audio/speakers/speaker2_a_en_16k.wav')] }] });
const files = { spliced: spliced.path, sample: shared('audio/pyannote-sample/sample.wav'), en2003a: shared('audio/meetings/ami_EN2003a_000-030.wav'), en2009b: shared('audio/meetings/ami_EN2009b_000-030.wav') };
for (const [name, path] of Object.entries(files)) {
  const cleaned = await cleanAudio({ sourcePath: path, outputDir: join(work, name), maxDurationSeconds: 3600 }, context);
  const db: number[] = [];
  for await (const block of readWavBlocks(cleaned.monoPath)) {
    const x = block.channels[0]!;
    for (let i = 0; i + 160 <= x.length; i += 160) { let p = 0; for (let j = i; j < i + 160; j++) p = Math.max(p, Math.abs(x[j]!)); db.push(20 * Math.log10(p + 1e-12)); }
  }
  const hist = new Map<number, number>();
  for (const d of db) { const b = Math.max(-130, Math.floor(d / 10) * 10); hist.set(b, (hist.get(b) ?? 0) + 1); }
  console.log(name, [...hist].sort((a, b) => a[0] - b[0]).map(([b, n]) => `${b}:${n}`).join(' '));
  if (name === 'spliced') {
    // peak level inside reference gaps
    const gaps: string[] = [];
    for (let t = 0; t + 1 < spliced.turns.length; t++) {
      const a = spliced.turns[t]!.endSeconds, b = spliced.turns[t + 1]!.startSeconds;
      const frames = db.slice(Math.ceil(a * 100), Math.floor(b * 100));
      gaps.push(`${(b - a).toFixed(2)}s max ${Math.max(...frames).toFixed(0)}`);
    }
    console.log(gaps.join(' | '));
  }
}
