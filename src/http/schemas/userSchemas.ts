import { Type } from 'typebox';
import { Timestamp, Uuid } from './commonSchemas.js';

export const UserSchema = Type.Object({
  id: Uuid,
  externalUserId: Type.String(),
  email: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'User' });

export const UserPatchSchema = Type.Object({
  displayName: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
}, { additionalProperties: false });

export const UserStatsSchema = Type.Object({
  totalCalls: Type.Integer({ description: 'All calls of the user, in any status' }),
  callsThisWeek: Type.Integer({ description: 'Calls uploaded since Monday 00:00 UTC of the current ISO week' }),
  openActionItems: Type.Integer({ description: 'Action items with status PENDING' }),
  overdueActionItems: Type.Integer({ description: 'PENDING items whose dueDate is before today (UTC)' }),
  completedActionItems: Type.Integer({ description: 'Action items with status COMPLETED' }),
  averageCallDurationSeconds: Type.Number({ description: 'Mean durationSeconds over calls whose duration is known, one decimal; 0 when none' }),
});

const VoiceProfileProvider = Type.String({ description: 'Who made the embedding: `callscope-local` (the installed speaker-embedding model, on this box)' });
const ConsentVersion = Type.String({ description: 'The consent version in force when the sample was recorded (`SERVICE_VOICE_CONSENT_VERSION`)' });

export const VoiceProfileCreatedSchema = Type.Object({
  status: Type.Literal('ACTIVE'),
  provider: VoiceProfileProvider,
  consentVersion: ConsentVersion,
  createdAt: Timestamp,
  sampleDurationSeconds: Type.Integer({ description: 'Length of the decoded sample, whole seconds' }),
}, { $id: 'VoiceProfileCreated' });

export const VoiceProfileStatusSchema = Type.Union([
  Type.Object({
    enabled: Type.Literal(true, { description: 'Voice profiles are offered by this server (when they are not, this endpoint answers 404 `feature_not_available` with `details.enabled: false`)' }),
    status: Type.Literal('ACTIVE'),
    provider: VoiceProfileProvider,
    consentVersion: ConsentVersion,
    createdAt: Timestamp,
    requiredConsentVersion: Type.Optional(Type.String({
      description: 'Present only when the profile is outdated: the consent version the server requires now (`SERVICE_VOICE_CONSENT_VERSION`), which differs from `consentVersion`. Such a profile is kept but not used for matching; the app should show the current consent and have the user record a new sample.',
    })),
  }),
  Type.Object({ enabled: Type.Literal(true), status: Type.Literal('MISSING') }),
], { $id: 'VoiceProfileStatus' });
