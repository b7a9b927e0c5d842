import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { analysisTimeZoneOf } from '../../src/config/loadConfig.js';
import { createBuiltinAnalyser } from '../../src/pipeline/analysis/builtin/builtinAnalyser.js';
import { transcriptFromSegments } from '../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../src/pipeline/speakers/resolveSpeakers.js';
import type { CallPipeline } from '../../src/processing/CallPipeline.js';
import { productionStages, runAnalysisStages } from '../../src/processing/productionPipeline.js';
import { startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { postUpload } from '../helpers/callInspection.js';
import { waitFor } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';

/*
 * A whole processing run with personal data in every place it can be (the upload's phone number
 * and contact, names, an email, a phone number and full sentences in the transcript), the API
 * answers read back, then every log line of the app and the engine scanned: no sentence, no
 * email, no unmasked phone number may appear. The speech stages are replaced by a known
 * transcript (the development whisper model hears no words); everything after them is the
 * production code.
 */
const contactPhone = '+44 161 496 0732';
const lines: [string, string][] = [
  ['A', 'Hi Sheila, this is Diane from Northwind Legal about the Hartley estate.'],
  ['B', 'Hello Diane. Please send the signed deed to sheila dot ross at acme dot com by Friday.'],
  ['A', 'I will, and you can reach me on oh one six one four nine six zero seven three two.'],
  ['B', 'My account number is 77419023 and my colleague Priya Shah will call you next Tuesday at 3.'],
  ['A', 'Thank you Sheila, speak soon.'],
];

let testApp: TestApp;
let processing: Processing;
const engineLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  testApp = await startTestApp();
  const logger = pino({ level: 'debug' }, { write: (line: string) => { engineLines.push(JSON.parse(line) as Record<string, unknown>); } });
  const pipeline: CallPipeline = async (job, run) => {
    const transcript = await run.stage(productionStages.speakerResolution, async () => resolveSpeakers(transcriptFromSegments({
      segments: lines.map(([speaker, text], index) => ({ sourceSpeakerId: speaker, startSeconds: index * 6, endSeconds: index * 6 + 5, text })),
    }, { callId: job.callId, createdAt: Date.now() }), { metadata: job.metadata, ...(job.userDisplayName ? { userDisplayName: job.userDisplayName } : {}) }));
    const analysed = await runAnalysisStages({ transcript, metadata: job.metadata, recordedAt: job.recordedAt, timeZone: analysisTimeZoneOf(testApp.services.config) }, run, createBuiltinAnalyser());
    return { transcript, analysis: analysed.analysis, analysisProducer: { ...analysed.producer }, actionItems: analysed.actionItemRows, durationSeconds: 30 };
  };
  processing = await startProcessing(testApp.services, logger as never, pipeline);
});
afterAll(async () => {
  await processing.stop(0);
  await testApp.close();
});

test('a processed call with personal data everywhere leaves no sentence, email or unmasked phone number in any log line', async () => {
  const diane = testApp.as('diane');
  await diane('/api/users/me', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Diane' }) });
  const wav = await readFile(resolve(import.meta.dirname, '../../../shared/audio/jfk/jfk.wav'));
  const response = await postUpload(diane, uploadForm(wav, 'hartley.wav', {
    metadata: { title: 'Hartley estate', contactName: 'Sheila Ross', phoneNumber: contactPhone, organization: 'Acme', direction: 'OUTGOING' },
  }), { 'idempotency-key': randomUUID() });
  const { callId } = (await response.json()) as { callId: string };
  await waitFor('the call to complete', async () => ((await (await diane(`/api/calls/${callId}`)).json()) as { status: string }).status === 'COMPLETED', 30_000);
  const [transcript, analysis, actions] = await Promise.all([
    diane(`/api/calls/${callId}/transcript`).then((answer) => answer.text()),
    diane(`/api/calls/${callId}/analysis`).then((answer) => answer.text()),
    diane('/api/actions').then((answer) => answer.text()),
  ]);
  // The data really went through: the answers carry it.
  expect(transcript).toContain('signed deed');
  expect(analysis.length).toBeGreaterThan(200);
  expect(analysis).toContain('Priya Shah');
  expect(JSON.parse(actions)).not.toEqual([]);

  const everyLine = [...testApp.logLines, ...engineLines].map((line) => JSON.stringify(line));
  expect(everyLine.length).toBeGreaterThan(10);
  const forbidden = [
    ...lines.flatMap(([, text]) => text.split(/(?<=[.!?])\s+/)).filter((sentence) => sentence.length > 12),
    'sheila.ross@acme.com', 'sheila dot ross', '4960732', '496 0732', '77419023', 'Hartley estate',
  ];
  for (const line of everyLine) {
    for (const secret of forbidden) expect(line, `log line leaks "${secret}"`).not.toContain(secret);
    // Phone numbers are only ever logged masked to their last two digits, however they were written.
    const digitRuns = line.replace(/[\s().+-]+(?=\d)/g, '').split(/\D+/);
    expect(digitRuns.some((run) => run.includes('4960732'))).toBe(false);
  }
}, 60_000);
