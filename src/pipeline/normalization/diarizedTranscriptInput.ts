import { Type, type Static } from 'typebox';
import { Settings } from 'typebox/system';
import { Value } from 'typebox/value';
import { CallMetadataSchema } from '../../http/schemas/callSchemas.js';

/** Display text: any string with at least one non-space character. */
const NonBlankText = Type.Refine(Type.String(), (text) => text.trim() !== '', () => 'must not be empty or blank');

/**
 * One turn of an already diarized transcript: who (`sourceSpeakerId`, any non-empty id, e.g.
 * `A` or `SPEAKER_00`) said `text` from `startSeconds` to `endSeconds` (seconds from the start
 * of the call, both ≥ 0, end not before start).
 */
export const DiarizedSegmentSchema = Type.Refine(
  Type.Object({
    sourceSpeakerId: Type.String({ minLength: 1 }),
    startSeconds: Type.Number({ minimum: 0 }),
    endSeconds: Type.Number({ minimum: 0 }),
    text: NonBlankText,
  }),
  (segment) => segment.endSeconds >= segment.startSeconds,
  (segment) => `endSeconds (${segment.endSeconds}) must be >= startSeconds (${segment.startSeconds})`,
);
export type DiarizedSegment = Static<typeof DiarizedSegmentSchema>;

/**
 * A transcript whose words are already attributed to speakers, as `callscope analyze-transcript`
 * reads it (and evaluation scripts may): the text half of the pipeline starts from it.
 *
 * - `user.displayName`: the user's name, as the profile would give it; optional.
 * - `metadata`: the upload metadata envelope (contact name, phone number, direction, …), checked
 *   against the same schema as an upload's `metadata` part; optional.
 * - `language`: a language code such as `en` or `en-GB`; optional, `und` (undetermined) when missing.
 * - `durationSeconds`: the call's length; optional, the latest segment end when missing.
 * - `segments`: at least one, in any order (they are sorted by start).
 *
 * Unknown fields are ignored, as in the metadata envelope, so a file may carry extra data
 * (e.g. an evaluation's expected answers).
 */
export const DiarizedTranscriptInputSchema = Type.Object({
  user: Type.Optional(Type.Object({
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  })),
  metadata: Type.Optional(CallMetadataSchema),
  language: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' })),
  durationSeconds: Type.Optional(Type.Number({ minimum: 0 })),
  segments: Type.Array(DiarizedSegmentSchema, { minItems: 1 }),
});
export type DiarizedTranscriptInput = Static<typeof DiarizedTranscriptInputSchema>;

/** At most this many problems are listed: enough to fix a file in one go, bounded for a file with thousands of bad segments. */
export const maxListedProblems = 100;

/**
 * Every way `value` is not a {@link DiarizedTranscriptInputSchema}, one line each as
 * `<JSON pointer> <message>` (`(root)` for the whole value), e.g.
 * `/segments/2 endSeconds (1.5) must be >= startSeconds (2)`; at most {@link maxListedProblems},
 * then a line saying more were left out. Empty when the value is valid. A segment's end before
 * its start is reported once the segment's fields are otherwise valid.
 */
export function diarizedTranscriptInputProblems(value: unknown): string[] {
  // TypeBox buffers only 8 errors by default (a process-wide setting, as a guard against huge
  // inputs). Raised for this one synchronous call so a file can be fixed in one go, then restored.
  const { maxErrors } = Settings.Get();
  Settings.Set({ maxErrors: maxListedProblems + 1 });
  let errors: ReturnType<typeof Value.Errors>;
  try {
    errors = Value.Errors(DiarizedTranscriptInputSchema, value);
  } finally {
    Settings.Set({ maxErrors });
  }
  const problems = errors.slice(0, maxListedProblems).map((problem) => `${problem.instancePath || '(root)'} ${problem.message}`);
  return errors.length > maxListedProblems ? [...problems, `(more problems after the first ${maxListedProblems} not listed)`] : problems;
}
