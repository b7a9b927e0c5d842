/**
 * One call through a fresh service, measured (see measureServiceRun.ts), in a process of its
 * own: `node <loader> scripts/bench/serviceRunProcess.ts JOB.json`. Started by
 * measureServiceRunInOwnProcess; writes the measure to the job's resultPath.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Value } from 'typebox/value';
import { measureServiceRun, ServiceRunJobSchema } from './measureServiceRun.js';

const jobPath = process.argv[2];
if (jobPath === undefined) throw new Error('usage: serviceRunProcess.ts JOB.json');
const job = Value.Parse(ServiceRunJobSchema, JSON.parse(await readFile(jobPath, 'utf8')));
const work = await mkdtemp(join(dirname(job.resultPath), 'run-'));
try {
  const measure = await measureServiceRun({ recordingPath: job.recordingPath, audioSeconds: job.audioSeconds, settings: job.settings, work });
  await writeFile(job.resultPath, JSON.stringify(measure));
} finally {
  await rm(work, { recursive: true, force: true });
}
