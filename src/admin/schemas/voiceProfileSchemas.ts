import { Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../http/schemas/commonSchemas.js';

/** The word the admin types to confirm deleting every profile. */
export const deleteAllConfirmation = 'DELETE';

export const AdminVoiceProfileSchema = Type.Object({
  userId: Uuid,
  displayName: Nullable(Type.String({ description: 'The user\'s display name; null when none is known' })),
  email: Nullable(Type.String({ description: 'The user\'s e-mail; null when none is known' })),
  provider: Type.String({ description: 'Who made the embedding: `callscope-local`' }),
  embeddingModel: Type.String({ description: 'File name of the speaker-embedding model that made it' }),
  consentVersion: Type.String({ description: 'The consent version stamped on the profile when it was recorded' }),
  consentCurrent: Type.Boolean({ description: 'The stamp is the current `SERVICE_VOICE_CONSENT_VERSION`; false: the profile is not used for matching until the user records again' }),
  sampleDurationSeconds: Type.Integer({ description: 'Length of the recorded sample, whole seconds' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { description: 'One user\'s voice profile: never the embedding or any of its bytes' });

export const AdminVoiceProfilesSchema = Type.Object({
  enabled: Type.Boolean({ description: '`SERVICE_VOICE_EMBEDDING_ENABLED`: profiles are offered and matched. Stored profiles are listed either way' }),
  consentVersion: Type.String({ description: 'The consent version the server requires now (`SERVICE_VOICE_CONSENT_VERSION`)' }),
  profiles: Type.Array(AdminVoiceProfileSchema, { description: 'At most one per user, most recently recorded first' }),
});

export const DeleteAllVoiceProfilesSchema = Type.Object({
  confirm: Type.Literal(deleteAllConfirmation, { description: 'Must be `DELETE`: the deletion cannot be undone' }),
}, { additionalProperties: false });

export const DeletedVoiceProfilesSchema = Type.Object({
  deleted: Type.Integer({ description: 'Number of profiles removed' }),
});
