import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../../src/createServices.js';
import type { TestApp } from './startTestApp.js';

/** A client of the test app acting as one user (what `testApp.as(user)` returns). */
export type UserClient = ReturnType<TestApp['as']>;

/** The `error` object of an error envelope. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: { fields?: { path: string; message: string }[]; [key: string]: unknown };
}

/** Reads an error response's envelope (and fails loudly when the body is not one). */
export async function errorOf(response: Response): Promise<ErrorBody> {
  const body = (await response.json()) as { error?: ErrorBody };
  if (!body.error) throw new Error(`expected an error envelope, got ${JSON.stringify(body)}`);
  return body.error;
}

/** POST /api/calls/analyze with a multipart form (see `uploadForm`). */
export function postUpload(client: UserClient, form: FormData, headers: Record<string, string> = {}): Promise<Response> {
  return client('/api/calls/analyze', { method: 'POST', body: form, headers });
}

/** DELETE with a JSON body (fetch sends no content type for a string body on its own). */
export function deleteJson(client: UserClient, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return client(path, { method: 'DELETE', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
}

/** Names of the files in `<DATA_DIR>/tmp` (uploads in progress or left behind). */
export function tempFiles(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'tmp'));
}

/** Names of the per-call folders under `<DATA_DIR>/objects/calls`. */
export function callFolders(dataDir: string): string[] {
  const folder = join(dataDir, 'objects', 'calls');
  return existsSync(folder) ? readdirSync(folder) : [];
}

/** Where an accepted upload's audio is stored. */
export function storedAudioPath(dataDir: string, callId: string, format: string): string {
  return join(dataDir, 'objects', 'calls', callId, `original.${format}`);
}

/** Tables holding rows that belong to one call. */
export type CallTable = 'calls' | 'call_artifacts' | 'action_items' | 'processing_events';

/** How many rows of `table` belong to the call (read straight from SQLite). */
export function rowsOfCall(services: Services, table: CallTable, callId: string): number {
  const column = table === 'calls' ? 'id' : 'call_id';
  const row = services.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).get(callId) as { n: number };
  return row.n;
}

/** Every call row in the database, of any user. */
export function allCallRows(services: Services): number {
  return (services.database.sqlite.prepare('SELECT count(*) AS n FROM calls').get() as { n: number }).n;
}

/** Records one finished pipeline stage for a call, as the worker does. */
export function recordProcessingEvent(services: Services, callId: string, stage = 'transcription'): void {
  const now = services.clock();
  services.database.sqlite
    .prepare('INSERT INTO processing_events (call_id, stage, outcome, started_at, ended_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?)')
    .run(callId, stage, 'OK', now - 1000, now, 1000);
}
