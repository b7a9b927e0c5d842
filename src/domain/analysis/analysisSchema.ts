import { Type, type Static } from 'typebox';

/*
 * The call analysis, schema version 2: written once here (TypeBox is JSON Schema), validated
 * on every analysis before it is stored, exported as `docs/schemas/analysis-v2.schema.json`
 * (`npm run schemas`) and used for the LLM's output grammar. The specification leaves the
 * element shapes of the typed lists, and the vocabularies below, to us; docs/architecture.md lists them.
 * Every list element that states a fact cites the transcript segments it comes from
 * (`sourceSegmentIds`, `seg_NNNN`): grounding checks that each exists.
 * Grounding reads its checks from this schema (src/pipeline/analysis/grounding/groundingRules.ts):
 * every unpatterned string is free text it checks, a string property named `name` or ending in
 * `Name` or `Label` is a person's name, and a new pattern needs a rule there.
 */

const SegmentIds = Type.Array(Type.String({ pattern: '^seg_\\d{4,}$' }), { description: 'Transcript segments the item is drawn from' });
const SpeakerId = Type.Union([Type.String({ pattern: '^spk_\\d+$' }), Type.Null()], { description: 'A transcript speaker (`spk_N`), or null when nobody in particular' });
const IsoDate = Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()], { description: '`YYYY-MM-DD`, or null when not resolved' });
const ShortText = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

export const phases = ['opening', 'middle', 'closing', 'followup'] as const;
export const bulletCategories = ['context', 'outcome', 'next_steps', 'concern', 'agreement', 'decision', 'blocker', 'observation'] as const;
export const importanceLevels = ['high', 'medium', 'low'] as const;
export const callTypes = [
  'sales', 'support', 'scheduling', 'follow_up', 'complaint', 'negotiation', 'inquiry', 'internal', 'personal', 'voicemail', 'other',
] as const;
export const conversationOutcomes = [
  'resolved', 'agreement', 'scheduled', 'follow_up_needed', 'escalated', 'unresolved', 'declined', 'informational', 'no_outcome', 'unclear',
] as const;
export const sentimentLabels = ['positive', 'negative', 'neutral', 'mixed', 'unclear'] as const;
export const toneLabels = [
  'professional', 'friendly', 'tense', 'urgent', 'supportive', 'transactional', 'escalated', 'empathetic', 'terse', 'playful',
  'confrontational', 'informational', 'casual', 'formal-business', 'conversational',
] as const;
export const actionIntents = ['meeting', 'email', 'call', 'message', 'reminder', 'task', 'none'] as const;
export const providerHints = ['meet', 'zoom', 'teams', 'phone', 'whatsapp', 'sms', 'telegram'] as const;
/** How many executive summary bullets an analysis has: this range, or none for a call too short to summarise. */
export const summaryBulletCount = { min: 3, max: 7 } as const;
export const amountKinds = ['money', 'quantity', 'percentage', 'duration', 'phone_number', 'reference_number', 'other'] as const;

const Phase = Type.Enum(phases);
const Importance = Type.Enum(importanceLevels);
const SentimentLabel = Type.Enum(sentimentLabels);
const Score = Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], { description: '-1 (negative) … 1 (positive); null only when truly unclear' });

export const SummaryBulletSchema = Type.Object({
  text: ShortText(300),
  category: Type.Enum(bulletCategories),
  importance: Importance,
  sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });

export const SectionSchema = Type.Object({
  title: ShortText(120),
  content: ShortText(2000),
  sourceSegmentIds: SegmentIds,
}, { additionalProperties: false, description: 'A thematic group of the call (dynamic: one per topic discussed)' });

export const KeyDiscussionPointSchema = Type.Object({
  text: ShortText(400),
  topic: ShortText(80, 'Free text'),
  phase: Phase,
  speakerId: SpeakerId,
  speakerLabel: Type.Union([Type.String(), Type.Null()]),
  speakerDisplayName: Type.Union([Type.String(), Type.Null()]),
  speakerRole: Type.Union([Type.Enum(['USER', 'CONTACT', 'UNKNOWN']), Type.Null()], { description: 'null for a joint exchange' }),
  sourceSegmentIds: Type.Array(Type.String({ pattern: '^seg_\\d{4,}$' }), { minItems: 1, description: 'Always cited' }),
}, { additionalProperties: false });

export const MeetingAttendeeSchema = Type.Object({ name: ShortText(120), email: Type.Optional(ShortText(254)) }, { additionalProperties: false });

/** Every field optional, per intent (the specification's table); the service builds no deep links. */
export const IntentMetadataSchema = Type.Object({
  providerHint: Type.Optional(Type.Enum(providerHints)),
  attendees: Type.Optional(Type.Array(MeetingAttendeeSchema, { maxItems: 20 })),
  proposedAt: Type.Optional(Type.String({ description: 'ISO date-time (local time of the box, with offset)' })),
  durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  title: Type.Optional(ShortText(200)),
  location: Type.Optional(ShortText(200)),
  toEmail: Type.Optional(ShortText(254)),
  toName: Type.Optional(ShortText(120)),
  subject: Type.Optional(ShortText(200)),
  bodyPreview: Type.Optional(ShortText(300)),
  phoneNumber: Type.Optional(ShortText(32)),
  contactName: Type.Optional(ShortText(120)),
  channel: Type.Optional(ShortText(40)),
  handle: Type.Optional(ShortText(120)),
  remindAt: Type.Optional(Type.String({ description: 'ISO date-time' })),
  notes: Type.Optional(ShortText(500)),
}, { additionalProperties: false });

export const AnalysisActionItemSchema = Type.Object({
  title: ShortText(200),
  description: Type.Union([ShortText(1000), Type.Null()]),
  dueDate: IsoDate,
  priority: Importance,
  ownerSpeakerId: SpeakerId,
  ownerSpeakerLabel: Type.Union([Type.String(), Type.Null()]),
  ownerDisplayName: Type.Union([Type.String(), Type.Null()]),
  ownerRole: Type.Union([Type.Enum(['USER', 'CONTACT', 'UNKNOWN']), Type.Null()]),
  sourceSegmentIds: SegmentIds,
  intent: Type.Enum(actionIntents),
  intentMetadata: IntentMetadataSchema,
}, { additionalProperties: false });

export const FollowUpSchema = Type.Object({
  text: ShortText(300), ownerSpeakerId: SpeakerId, dueDate: IsoDate, sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });

export const ImportantDateSchema = Type.Object({
  text: ShortText(120, 'The date as said ("next Tuesday at 3")'),
  date: IsoDate,
  time: Type.Union([Type.String({ pattern: '^\\d{2}:\\d{2}$' }), Type.Null()], { description: '`HH:MM` (24 h) when a time was said' }),
  description: ShortText(300),
  sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });

export const DecisionSchema = Type.Object({ text: ShortText(300), madeBySpeakerId: SpeakerId, sourceSegmentIds: SegmentIds }, { additionalProperties: false });
export const CommitmentSchema = Type.Object({
  text: ShortText(300), speakerId: SpeakerId, dueDate: IsoDate, sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });
export const OpenQuestionSchema = Type.Object({ text: ShortText(300), askedBySpeakerId: SpeakerId, sourceSegmentIds: SegmentIds }, { additionalProperties: false });
export const RiskSchema = Type.Object({ text: ShortText(300), severity: Importance, sourceSegmentIds: SegmentIds }, { additionalProperties: false });
export const OpportunitySchema = Type.Object({ text: ShortText(300), sourceSegmentIds: SegmentIds }, { additionalProperties: false });
export const PersonMentionedSchema = Type.Object({
  name: ShortText(120, 'As said in the call or given in the metadata'),
  relation: Type.Enum(['participant', 'third_party']),
  role: Type.Union([ShortText(80, 'e.g. "colleague", "manager", "lawyer" when said'), Type.Null()]),
  speakerId: SpeakerId,
  sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });
export const NumberOrAmountSchema = Type.Object({
  text: ShortText(80, 'As said ("$1,200", "fifteen percent")'),
  kind: Type.Enum(amountKinds),
  value: Type.Union([Type.Number(), Type.Null()]),
  unit: Type.Union([ShortText(24), Type.Null()], { description: 'e.g. "units", "minutes", "%"' }),
  currency: Type.Union([Type.String({ pattern: '^[A-Z]{3}$' }), Type.Null()], { description: 'ISO 4217 for money' }),
  context: ShortText(200),
  sourceSegmentIds: SegmentIds,
}, { additionalProperties: false });

const PartySentimentSchema = Type.Object({ overall: SentimentLabel, score: Score, notes: ShortText(300) }, { additionalProperties: false });
export const SentimentSchema = Type.Object({
  overall: SentimentLabel,
  score: Score,
  reason: ShortText(400),
  userSentiment: Type.Union([PartySentimentSchema, Type.Null()]),
  contactSentiment: Type.Union([PartySentimentSchema, Type.Null()]),
  progression: Type.Array(Type.Object({
    phase: Phase, overall: SentimentLabel, note: ShortText(200), sourceSegmentIds: SegmentIds,
  }, { additionalProperties: false }), { maxItems: 4, description: '2 to 4 items; fewer for calls too short to have phases' }),
  emotionalSignals: Type.Array(ShortText(30), { maxItems: 6, description: 'Short adjective tags grounded in the transcript; empty when unsupported' }),
}, { additionalProperties: false });

const PartyToneSchema = Type.Object({
  overall: Type.Enum(toneLabels), descriptors: Type.Array(ShortText(30), { minItems: 1, maxItems: 4 }), notes: ShortText(300),
}, { additionalProperties: false });
export const ToneSchema = Type.Object({
  overall: Type.Enum(toneLabels),
  descriptors: Type.Array(ShortText(30), { minItems: 1, maxItems: 4 }),
  formality: Type.Enum(['formal', 'semi-formal', 'informal']),
  energy: Type.Enum(['low', 'medium', 'high']),
  pace: Type.Enum(['slow', 'normal', 'fast']),
  notes: ShortText(400, '1 to 2 sentences'),
  byParty: Type.Object({
    userTone: Type.Union([PartyToneSchema, Type.Null()]),
    contactTone: Type.Union([PartyToneSchema, Type.Null()]),
  }, { additionalProperties: false }),
}, { additionalProperties: false });

/** A list that is null when the analyser could not produce it (v2 additions are nullable). */
const NullableList = <Item extends Parameters<typeof Type.Array>[0]>(item: Item, options: Parameters<typeof Type.Array>[1] = {}) =>
  Type.Union([Type.Array(item, options), Type.Null()]);

export const AnalysisSchema = Type.Object({
  schemaVersion: Type.Literal(2),
  callType: Type.Union([Type.Enum(callTypes), Type.Null()]),
  suggestedTitle: Type.Union([ShortText(120), Type.Null()]),
  oneLineSummary: Type.Union([ShortText(300), Type.Null()]),
  conversationOutcome: Type.Union([Type.Enum(conversationOutcomes), Type.Null()]),
  executiveSummary: Type.Union([ShortText(3000), Type.Null()]),
  executiveSummaryBullets: NullableList(SummaryBulletSchema, { maxItems: summaryBulletCount.max, description: `${summaryBulletCount.min} to ${summaryBulletCount.max} items; fewer only for calls too short to summarise` }),
  sections: NullableList(SectionSchema, { maxItems: 12 }),
  keyDiscussionPoints: NullableList(KeyDiscussionPointSchema, { maxItems: 30, description: 'Chronological' }),
  actionItems: NullableList(AnalysisActionItemSchema, { maxItems: 30 }),
  followUps: NullableList(FollowUpSchema, { maxItems: 20 }),
  importantDates: NullableList(ImportantDateSchema, { maxItems: 20 }),
  decisions: NullableList(DecisionSchema, { maxItems: 20 }),
  commitments: NullableList(CommitmentSchema, { maxItems: 20 }),
  openQuestions: NullableList(OpenQuestionSchema, { maxItems: 20 }),
  risks: NullableList(RiskSchema, { maxItems: 20 }),
  opportunities: NullableList(OpportunitySchema, { maxItems: 20 }),
  peopleMentioned: NullableList(PersonMentionedSchema, { maxItems: 30 }),
  numbersAndAmounts: NullableList(NumberOrAmountSchema, { maxItems: 30 }),
  sentiment: Type.Union([SentimentSchema, Type.Null()]),
  tone: Type.Union([ToneSchema, Type.Null()]),
  tags: Type.Array(ShortText(40), { maxItems: 12 }),
  qualityWarnings: Type.Array(ShortText(300)),
}, { $id: 'https://callscope.local/schemas/analysis-v2.schema.json', title: 'Callscope call analysis, schema version 2', additionalProperties: false });

export type Analysis = Static<typeof AnalysisSchema>;
export type AnalysisActionItem = Static<typeof AnalysisActionItemSchema>;
export type IntentMetadata = Static<typeof IntentMetadataSchema>;
export type ActionIntent = (typeof actionIntents)[number];
export type Phase = (typeof phases)[number];

/** Which analyser made an analysis: stored with it as the artifact's `producer`. */
export interface AnalysisProducer {
  /** `builtin` (rules and lexicons, no model), `llm` (a language model reads the call) or `hybrid` (the rules' analysis, checked and headlined by a language model). */
  analyser: 'builtin' | 'llm' | 'hybrid';
  /** The analyser's own version, bumped when its output changes for the same input. */
  analyserVersion: string;
  /** The GGUF file name (no path), or the chat server's model name, for `llm` and `hybrid`. */
  model?: string;
}
