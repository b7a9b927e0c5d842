/**
 * The scripted calls of `npm run eval:speakers`, read from ./speakerCalls.json: who says what,
 * the upload metadata, and for every speaker the role and name a careful listener would give
 * them. The expectations were written by a helper who never read the speaker resolver (the
 * file's `expectationsWrittenBy` and `roleMeaning` say how); they are truth to measure against,
 * not the resolver's rules.
 *
 * The file is checked against `SpeakerCallsFileSchema` and `speakerCallProblems` when loaded; a
 * file that fails either is refused with the field or call named.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { speakerRoles } from '../../src/domain/transcripts/transcriptSchema.js';
import { CallMetadataSchema } from '../../src/http/schemas/callSchemas.js';

/** The speaker ids a scripted line may carry, as diarization names them. */
export const scriptedSpeakers = ['SPEAKER_00', 'SPEAKER_01', 'SPEAKER_02'] as const;
export type ScriptedSpeaker = (typeof scriptedSpeakers)[number];

/** How plain the annotator found a speaker's role and name: said outright, reasonably inferred, or a weak guess. */
export const certainties = ['clear', 'inferred', 'guess'] as const;
export type Certainty = (typeof certainties)[number];

/** One value per speaker of the call, for any of the three ids. */
const perSpeaker = <T extends TSchema>(value: T) => Type.Partial(Type.Object(
  Object.fromEntries(scriptedSpeakers.map((speaker) => [speaker, value])) as Record<ScriptedSpeaker, T>,
  { additionalProperties: false },
));

const ExpectationSchema = Type.Object({
  role: Type.Enum(speakerRoles),
  /** The person's name as a careful listener would give it, or null for none. */
  name: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  certainty: Type.Enum(certainties),
  /** The annotator's reason, in a sentence. */
  why: Type.String({ minLength: 1 }),
}, { additionalProperties: false });

const LineSchema = Type.Object({
  speaker: Type.Enum(scriptedSpeakers),
  text: Type.String({ minLength: 1 }),
  /** When the line starts (seconds from the call's start), for a line later in the call; by default right after the line before. */
  startSeconds: Type.Optional(Type.Number({ minimum: 0 })),
}, { additionalProperties: false });

const UserChannel = Type.Enum(['left', 'right']);
/**
 * A stereo recording: the channel the recorder puts the user on, and whether diarization went by
 * channel (then SPEAKER_00 is the left channel and SPEAKER_01 the right, as diarizeRecording
 * names them, stated in `speakerOnChannel` so the annotation can be read without the code) or
 * by the voice model (then the channel says nothing about the ids).
 */
const StereoSchema = Type.Union([
  Type.Object({
    userChannel: UserChannel, diarizedBy: Type.Literal('channel'),
    speakerOnChannel: Type.Object({ left: Type.Literal('SPEAKER_00'), right: Type.Literal('SPEAKER_01') }, { additionalProperties: false }),
  }, { additionalProperties: false }),
  Type.Object({ userChannel: UserChannel, diarizedBy: Type.Literal('model') }, { additionalProperties: false }),
]);

const SpeakerCallSchema = Type.Object({
  /** `call-NN`: the calls written beside the resolver, re-annotated; `new-NN`: written with the annotation. */
  id: Type.String({ pattern: '^(call|new)-\\d{2}$' }),
  title: Type.String({ minLength: 1 }),
  /** The user's display name; absent when the user has none. */
  userDisplayName: Type.Optional(Type.String({ minLength: 1 })),
  metadata: Type.Pick(CallMetadataSchema, ['contactName', 'phoneNumber', 'direction'], { additionalProperties: false }),
  /** The ids a supplied transcript gives the speakers instead of `SPEAKER_NN` (e.g. their names). */
  sourceIds: Type.Optional(perSpeaker(Type.String({ minLength: 1 }))),
  stereo: Type.Optional(StereoSchema),
  lines: Type.Array(LineSchema, { minItems: 1 }),
  /** The annotator's expectation for each speaker who says a line. */
  expected: perSpeaker(ExpectationSchema),
}, { additionalProperties: false });

const SpeakerCallsFileSchema = Type.Object({
  about: Type.String({ minLength: 1 }),
  /** Who wrote the expectations, and from what. */
  expectationsWrittenBy: Type.String({ minLength: 1 }),
  /** How a channel maps to a speaker id on a call diarized by channel. */
  channels: Type.String({ minLength: 1 }),
  /** The annotator's own account of what USER, CONTACT and UNKNOWN mean and how it decided. */
  roleMeaning: Type.String({ minLength: 1 }),
  calls: Type.Array(SpeakerCallSchema, { minItems: 1 }),
}, { additionalProperties: false });

export type SpeakerExpectation = Static<typeof ExpectationSchema>;
export type ScriptedLine = Static<typeof LineSchema>;
export type SpeakerCall = Static<typeof SpeakerCallSchema>;
export type SpeakerCallsFile = Static<typeof SpeakerCallsFileSchema>;

/** Which set a call belongs to: `original` (call-NN, written beside the resolver) or `new` (new-NN). */
export const callSetOf = (call: SpeakerCall): 'original' | 'new' => (call.id.startsWith('new-') ? 'new' : 'original');

/** What the schema cannot say: ids are unique, and the expected speakers are exactly the speakers who say a line. */
export function speakerCallProblems(file: SpeakerCallsFile): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const call of file.calls) {
    if (seen.has(call.id)) problems.push(`${call.id}: the id is used twice`);
    seen.add(call.id);
    const speaking = new Set(call.lines.map(({ speaker }) => speaker));
    for (const speaker of speaking) if (!call.expected[speaker]) problems.push(`${call.id}: ${speaker} says a line but has no expectation`);
    for (const speaker of Object.keys(call.expected)) if (!speaking.has(speaker as ScriptedSpeaker)) problems.push(`${call.id}: ${speaker} has an expectation but says no line`);
    for (const speaker of Object.keys(call.sourceIds ?? {})) if (!speaking.has(speaker as ScriptedSpeaker)) problems.push(`${call.id}: sourceIds names ${speaker}, who says no line`);
  }
  return problems;
}

const fileValidator = Compile(SpeakerCallsFileSchema);

/** Reads and checks a speaker-calls file; throws naming the first fields or calls at fault. */
export function loadSpeakerCalls(path: string = fileURLToPath(new URL('./speakerCalls.json', import.meta.url))): SpeakerCallsFile {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!fileValidator.Check(parsed)) {
    const fields = fileValidator.Errors(parsed).slice(0, 5).map((error) => `${error.instancePath || '/'}: ${error.message}`);
    throw new Error(`${path} does not match the speaker-calls schema: ${fields.join('; ')}`);
  }
  const problems = speakerCallProblems(parsed);
  if (problems.length > 0) throw new Error(`${path}: ${problems.slice(0, 5).join('; ')}`);
  return parsed;
}
