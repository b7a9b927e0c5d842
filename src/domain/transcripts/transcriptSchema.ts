import { Type, type Static } from 'typebox';
import { uuidPattern } from '../ids.js';
import { TranscriptRedactionSchema } from './transcriptRedactionSchema.js';

const Uuid = Type.String({ format: 'uuid', pattern: uuidPattern });
const Timestamp = Type.String({ format: 'date-time' });

export const speakerRoles = ['USER', 'CONTACT', 'UNKNOWN'] as const;
export type SpeakerRole = (typeof speakerRoles)[number];
export const speakerConfidences = ['HIGH', 'MEDIUM', 'LOW'] as const;
const Role = Type.Enum(speakerRoles);
const Confidence = Type.Enum(speakerConfidences);
export const labelSources = [
  'DIARIZATION', 'USER_PROFILE', 'CONTACT_METADATA', 'GREETING_MATCH', 'NAME_MENTION', 'BY_ELIMINATION',
  'PHONE_FALLBACK', 'POSITIONAL_FALLBACK', 'VOICE_EMBEDDING', 'AMBIGUOUS', 'MANUAL',
] as const;

export const SpeakerSchema = Type.Object({
  speakerId: Type.String({ pattern: '^spk_\\d+$' }),
  sourceSpeakerId: Type.String(),
  label: Type.String(),
  displayName: Type.String(),
  role: Role,
  confidence: Confidence,
  labelSource: Type.Enum(labelSources),
  voiceMatchScore: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  voiceProfileMatched: Type.Union([Type.Boolean(), Type.Null()]),
});

export const SegmentSchema = Type.Object({
  id: Type.String({ pattern: '^seg_\\d{4,}$' }),
  speaker: Type.String(),
  speakerLabel: Type.String(),
  speakerDisplayName: Type.String(),
  speakerId: Type.String(),
  sourceSpeakerId: Type.String(),
  role: Role,
  startSeconds: Type.Number({ minimum: 0 }),
  endSeconds: Type.Number({ minimum: 0 }),
  text: Type.String(),
  alignmentConfidence: Type.String(),
});

export const SpeakerResolutionSchema = Type.Object({
  strategyVersion: Type.Integer(),
  usedUserDisplayName: Type.Boolean(),
  usedContactName: Type.Boolean(),
  usedDirection: Type.Boolean(),
  usedPhoneFallback: Type.Boolean(),
  voiceEmbeddingEnabled: Type.Boolean(),
  voiceProfileUsed: Type.Boolean(),
  voiceMatchStatus: Type.String(),
  totalSpeakerCount: Type.Integer(),
  resolvedSpeakerCount: Type.Integer(),
  warnings: Type.Array(Type.String()),
});

export const PipelineProvenanceSchema = Type.Object({
  transcriptionProvider: Type.String(),
  transcriptionModel: Type.String(),
  diarizationProvider: Type.String(),
  diarizationModel: Type.String(),
  alignmentVersion: Type.String(),
  normalizationVersion: Type.Integer(),
  status: Type.String(),
});

export type Speaker = Static<typeof SpeakerSchema>;
export type Segment = Static<typeof SegmentSchema>;
export type SpeakerResolution = Static<typeof SpeakerResolutionSchema>;
export type PipelineProvenance = Static<typeof PipelineProvenanceSchema>;

/** The transcript's current schema version and its normalisation version. */
export const transcriptSchemaVersion = 2;
export const normalizationVersion = 3;

/** Transcript, schema version 2, exactly as the interface specification lists it. */
export const TranscriptSchema = Type.Object({
  schemaVersion: Type.Integer(),
  callId: Uuid,
  language: Type.String(),
  durationSeconds: Type.Number({ minimum: 0 }),
  cleanText: Type.String(),
  speakers: Type.Array(SpeakerSchema),
  segments: Type.Array(SegmentSchema),
  speakerResolution: SpeakerResolutionSchema,
  pipeline: PipelineProvenanceSchema,
  createdAt: Timestamp,
  // Issue 19, additive: what local redaction replaced (counts only).
  redaction: Type.Optional(TranscriptRedactionSchema),
}, { $id: 'Transcript' });
export type Transcript = Static<typeof TranscriptSchema>;
