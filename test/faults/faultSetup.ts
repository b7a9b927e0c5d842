import { sql } from 'drizzle-orm';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { expect } from 'vitest';
import type { CallStatus } from '../../src/domain/calls/callTypes.js';
import { waitFor } from '../helpers/processingHarness.js';
import { uploadForm } from '../helpers/uploads.js';
import { speakerClips, writeToyVoiceModel } from '../pipeline/voice/toyVoiceModel.js';
import { sampleCallScript, writeScriptedWhisperCli } from './scriptedWhisper.js';
import { asUser, filesNamedByRows, query, storedFiles, type ServerProcess } from '../helpers/serverProcess.js';

const shared = resolve(import.meta.dirname, '../../../shared');

/** The recording every fault test uploads: Diane and Sheila, 30 s, 16 kHz WAV. */
export const sampleCall = (): Buffer => readFileSync(join(shared, 'audio/pyannote-sample/sample.wav'));

/** Upload metadata: fixed `recordedAt`, so due dates ("tomorrow") are the same in every run. */
export const sampleMetadata = { contactName: 'Sheila', recordedAt: '2026-11-20T10:00:00Z' };

export interface FaultRig {
  /** Environment of a server that runs every stage, voice matching included. */
  env: Record<string, string>;
  remove(): void;
}

/**
 * Models and settings under which a call passes through every stage of the production pipeline:
 * the real segmentation model, the scripted stand-in for whisper-cli (the structure-only whisper
 * model hears no words), the built-in analyser, and voice profiles with a small ONNX speaker model.
 */
export async function faultRig(): Promise<FaultRig> {
  const folder = mkdtempSync(join(tmpdir(), 'callscope-fault-rig-'));
  const embeddingModel = await writeToyVoiceModel(join(folder, 'toy-embedding.onnx'));
  return {
    env: {
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      WHISPER_MODEL: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
      WHISPER_CLI: writeScriptedWhisperCli(folder, sampleCallScript),
      EMBEDDING_MODEL: embeddingModel,
      SERVICE_VOICE_EMBEDDING_ENABLED: 'true',
      SERVICE_VOICE_SAMPLE_MIN_SECONDS: '5',
      ANALYSER: 'builtin',
      ANALYSIS_TIME_ZONE: 'UTC',
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** Records `user`'s voice profile (so that the voiceMatch stage runs for their calls). */
export async function enrolVoice(server: ServerProcess, user: string): Promise<void> {
  const form = uploadForm(readFileSync(speakerClips.speaker1a), 'sample.wav', { fields: { consentAccepted: 'true' } });
  const response = await asUser(server, user, '/api/users/me/voice-profile', { method: 'POST', body: form });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** POST /api/calls/analyze with the sample call; the answer as sent. */
export function uploadSample(server: ServerProcess, user: string, idempotencyKey: string): Promise<Response> {
  return asUser(server, user, '/api/calls/analyze', {
    method: 'POST',
    headers: { 'idempotency-key': idempotencyKey },
    body: uploadForm(sampleCall(), 'sample.wav', { metadata: sampleMetadata }),
  });
}

export interface CallOutcome {
  status: CallStatus;
  errorReason: string | null;
  /** Titles of the call's action items, sorted. */
  actionItemTitles: string[];
}

/** Waits (up to 90 s) until the call is COMPLETED or FAILED; then its action items. */
export async function waitForOutcome(server: ServerProcess, user: string, callId: string): Promise<CallOutcome> {
  const call = await waitFor(`call ${callId} to end`, async () => {
    const detail = (await (await asUser(server, user, `/api/calls/${callId}`)).json()) as { status: CallStatus; errorReason: string | null };
    return detail.status === 'COMPLETED' || detail.status === 'FAILED' ? detail : undefined;
  }, 90_000);
  const items = (await (await asUser(server, user, '/api/actions')).json()) as { title: string; callRecordId: string }[];
  const titles = items.filter((item) => item.callRecordId === callId).map((item) => item.title);
  return { status: call.status, errorReason: call.errorReason, actionItemTitles: titles.sort() };
}

/**
 * What must hold in DATA_DIR once every call has ended: no temp file, every stored file named by
 * a row (no work folders, no documents of a run that never committed, no audio without its call).
 * A run removes what its call kept for a transcription callback (`pending/`) and its work folder
 * just after it commits COMPLETED, so a client can see the status a moment before they are gone:
 * that moment is waited out (bounded), not counted. (A work folder may hold no file by then, so
 * its absence alone does not show that `pending/` is gone too.)
 */
export async function expectNoOrphans(dataDir: string): Promise<void> {
  const leftByARun = (file: string) => file.split(sep).some((part) => part === 'work' || part === 'pending');
  await waitFor('the last run to remove its work and pending folders', () => !storedFiles(dataDir).some(leftByARun), 10_000).catch(() => undefined);
  expect(storedFiles(dataDir)).toEqual(await filesNamedByRows(dataDir));
  expect((await query<{ n: number }>(dataDir, sql`SELECT COUNT(*) AS n FROM processing_events WHERE outcome = 'RUNNING'`))[0]?.n).toBe(0);
}

/** Calls of all users in the database. */
export async function callCount(dataDir: string): Promise<number> {
  return (await query<{ n: number }>(dataDir, sql`SELECT COUNT(*) AS n FROM calls`))[0]!.n;
}
