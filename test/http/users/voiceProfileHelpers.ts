import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../../src/pipeline/cleanup/ffmpegBinaries.js';
import type { UserClient } from '../../helpers/callInspection.js';
import type { TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';
import { speakerClips, writeToyVoiceModel } from '../../pipeline/voice/toyVoiceModel.js';

export const voiceProfilePath = '/api/users/me/voice-profile';
export const voiceProfileStatusPath = '/api/users/me/voice-profile/status';

export const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** The 201 answer of POST /api/users/me/voice-profile. */
export interface VoiceProfileCreated {
  status: 'ACTIVE';
  provider: string;
  consentVersion: string;
  createdAt: string;
  sampleDurationSeconds: number;
}

/** The 200 answer of GET /api/users/me/voice-profile/status. */
export type VoiceProfileStatus =
  | { enabled: true; status: 'ACTIVE'; provider: string; consentVersion: string; createdAt: string }
  | { enabled: true; status: 'MISSING' };

/** speaker1a: a real 7.8 s recording of one speaker, 16 kHz mono 16-bit WAV (250 KB). */
export const speakerSample = (): Buffer => readFileSync(speakerClips.speaker1a);

/** Environment of an app offering voice profiles with the toy model, accepting 5 to 60 s samples. */
export function voiceEnv(modelPath: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { SERVICE_VOICE_EMBEDDING_ENABLED: 'true', EMBEDDING_MODEL: modelPath, SERVICE_VOICE_SAMPLE_MIN_SECONDS: '5', ...overrides };
}

/** A temp folder holding the toy speaker-embedding model; `remove()` in afterAll. */
export async function toyModelFolder(): Promise<{ folder: string; modelPath: string; remove(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'callscope-voice-model-'));
  const modelPath = await writeToyVoiceModel(join(folder, 'toy-embedding.onnx'));
  return { folder, modelPath, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Transcodes a file with the ffmpeg the pipeline uses (codec options e.g. `['-c:a', 'aac']`). */
export async function transcode(inputPath: string, outputPath: string, codecOptions: string[] = []): Promise<Buffer> {
  const { ffmpegPath } = resolveFfmpegBinaries();
  await promisify(execFile)(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-y', '-i', inputPath, ...codecOptions, outputPath]);
  return readFileSync(outputPath);
}

/** POST the voice sample as `file`, with `consentAccepted` (`'true'` unless given; `null` leaves it out). */
export function postVoiceSample(
  client: UserClient,
  sample: Buffer,
  options: { fileName?: string; consentAccepted?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const consent = options.consentAccepted === undefined ? 'true' : options.consentAccepted;
  const form = uploadForm(sample, options.fileName ?? 'sample.wav', { fields: consent === null ? {} : { consentAccepted: consent } });
  return client(voiceProfilePath, { method: 'POST', body: form, headers: options.headers ?? {} });
}

export async function statusOf(client: UserClient): Promise<VoiceProfileStatus> {
  const response = await client(voiceProfileStatusPath);
  if (response.status !== 200) throw new Error(`status answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as VoiceProfileStatus;
}

export function deleteVoiceProfile(client: UserClient): Promise<Response> {
  return client(voiceProfilePath, { method: 'DELETE' });
}

/** The user id behind a local user name (creating the user row on first use). */
export async function userIdOf(client: UserClient): Promise<string> {
  const response = await client('/api/users/me');
  if (response.status !== 200) throw new Error(`GET /api/users/me answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/** Rows of `voice_profiles`, of every user or of one. */
export async function voiceProfileRows(testApp: TestApp, userId?: string): Promise<number> {
  const ofUser = userId === undefined ? sql`` : sql` where user_id = ${userId}`;
  const row = await testApp.services.database.sql.get<{ n: number }>(sql`select count(*) as n from voice_profiles${ofUser}`);
  return row?.n ?? 0;
}

export interface VoiceProfileRow {
  provider: string;
  embedding_model: string;
  embedding_dimension: number;
  encrypted_embedding: Buffer;
  consent_version: string;
  sample_duration_seconds: number;
  created_at: number;
  updated_at: number;
}

/** The user's `voice_profiles` row as stored (the columns of VoiceProfileRow), or undefined. */
export function voiceProfileRow(testApp: TestApp, userId: string): Promise<VoiceProfileRow | undefined> {
  return testApp.services.database.sql.get<VoiceProfileRow>(sql`select provider, embedding_model, embedding_dimension, encrypted_embedding,
    consent_version, sample_duration_seconds, created_at, updated_at from voice_profiles where user_id = ${userId}`);
}

/** `callscope_voice_profile_uploads_total` by outcome label (0 when never counted). */
export async function uploadCounts(testApp: TestApp): Promise<Record<'created' | 'rejected' | 'provider_error', number>> {
  const counts = { created: 0, rejected: 0, provider_error: 0 };
  for (const { labels, value } of (await testApp.services.metrics.voiceProfileUploads.get()).values) {
    counts[labels.outcome as keyof typeof counts] = value;
  }
  return counts;
}

