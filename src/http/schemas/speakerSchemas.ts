import { Type, type Static } from 'typebox';
import { speakerRoles } from '../../domain/transcripts/transcriptSchema.js';
import { Uuid } from './commonSchemas.js';

const SpeakerIdText = Type.String({ pattern: '^spk_\\d+$', description: 'A transcript speaker, `spk_N`' });

export const SpeakerParams = Type.Object({ id: Uuid, speakerId: SpeakerIdText });

/** A display name as a person would type it: no control characters, 1–120 characters after trimming. */
const DisplayName = Type.String({ minLength: 1, maxLength: 120, pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\u0000-\\u001f\\u007f\\s][^\\u0000-\\u001f\\u007f]*$', description: 'Shown for the speaker everywhere; trimmed' });

export const SpeakerPatchSchema = Type.Object({
  displayName: Type.Optional(DisplayName),
  role: Type.Optional(Type.Enum(speakerRoles, { description: 'USER (the call\'s user), CONTACT or UNKNOWN' })),
}, { additionalProperties: false, minProperties: 1, description: 'At least one of displayName and role' });
export type SpeakerPatch = Static<typeof SpeakerPatchSchema>;

export const SpeakerMergeSchema = Type.Object({
  from: SpeakerIdText,
  into: SpeakerIdText,
}, { additionalProperties: false, description: 'Every segment of `from` becomes `into`\'s; `from` is removed' });
