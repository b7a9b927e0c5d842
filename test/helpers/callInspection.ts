import { sql } from 'drizzle-orm';
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

/** How many rows of `table` belong to the call (read straight from the database). */
export async function rowsOfCall(services: Services, table: CallTable, callId: string): Promise<number> {
  const column = table === 'calls' ? 'id' : 'call_id';
  const row = await services.database.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${callId}`);
  return row?.n ?? 0;
}

/** Every call row in the database, of any user. */
export async function allCallRows(services: Services): Promise<number> {
  return (await services.database.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM calls`))?.n ?? 0;
}

/** Records one finished pipeline stage for a call, as the worker does. */
export async function recordProcessingEvent(services: Services, callId: string, stage = 'transcription'): Promise<void> {
  const now = services.clock();
  await services.database.sql.run(sql`INSERT INTO processing_events (call_id, stage, outcome, started_at, ended_at, duration_ms)
    VALUES (${callId}, ${stage}, 'OK', ${now - 1000}, ${now}, 1000)`);
}
