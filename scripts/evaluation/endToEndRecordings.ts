import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';
import { CallMetadataSchema } from '../../src/http/schemas/callSchemas.js';

const EndToEndRecordingSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  audio: Type.String({ minLength: 1 }),
  rttm: Type.String({ minLength: 1 }),
  stm: Type.Optional(Type.String({ minLength: 1 })),
  userDisplayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  metadata: CallMetadataSchema,
}, { additionalProperties: false });

const EndToEndRecordingsFileSchema = Type.Object({
  '//': Type.Optional(Type.String()),
  recordings: Type.Array(EndToEndRecordingSchema, { minItems: 1 }),
}, { additionalProperties: false });

/** A recording of ./endToEndRecordings.json, its paths made absolute. */
export type EndToEndRecording = Static<typeof EndToEndRecordingSchema>;

/** The recordings `npm run eval:end-to-end` runs (./endToEndRecordings.json); a file that breaks the schema throws, naming the field. */
export function loadEndToEndRecordings(): EndToEndRecording[] {
  const path = fileURLToPath(new URL('./endToEndRecordings.json', import.meta.url));
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Value.Check(EndToEndRecordingsFileSchema, parsed)) {
    throw new Error(`${path}: ${[...Value.Errors(EndToEndRecordingsFileSchema, parsed)].map((error) => `${error.instancePath} ${error.message}`).join('; ')}`);
  }
  const fromRepository = (path: string) => resolve(packageRoot, path);
  return parsed.recordings.map((recording) => ({
    ...recording,
    audio: fromRepository(recording.audio),
    rttm: fromRepository(recording.rttm),
    ...(recording.stm ? { stm: fromRepository(recording.stm) } : {}),
  }));
}
