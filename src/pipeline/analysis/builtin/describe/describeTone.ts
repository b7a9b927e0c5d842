import type { Analysis, toneLabels } from '../../../../domain/analysis/analysisSchema.js';
import type { SpeakerRole } from '../../../../domain/transcripts/transcriptSchema.js';
import type { CallType } from './classifyCall.js';
import { speakerNameOf, type Conversation, type Utterance } from './readConversation.js';
import { readSentiment, type ScoredSentence, type SentimentLabel } from './scoreSentiment.js';
import { capitalise, clip } from '../../text/clip.js';

type Tone = NonNullable<Analysis['tone']>;
type PartyTone = NonNullable<Tone['byParty']['userTone']>;
type ToneLabel = (typeof toneLabels)[number];
type Formality = Tone['formality'];
type Level = Tone['energy'];
type Pace = Tone['pace'];

/** Register markers, counted per occurrence (global patterns over the lower-cased sentence). */
const markers = {
  formal: /\b(?:please|thank you|would you|could you|may i|sir|madam|certainly|regarding|kindly|i would like|appreciate|sincerely|pleasure|apologi[sz]e|indeed|shall|assist)\b/g,
  casual: /\b(?:yeah|yep|yup|nope|nah|gonna|wanna|gotta|kinda|sorta|hey|cool|dude|mate|guys|awesome|stuff|ya|lol|haha|totally|super|ain't)\b/g,
  contraction: /\b\w+'(?:ll|re|ve|d|m|s|t)\b/g,
  intensifier: /\b(?:really|so|very|totally|absolutely|extremely|incredibly|super|definitely|completely|seriously|literally)\b/g,
  business: /\b(?:invoices?|contracts?|accounts?|orders?|payments?|deliver(?:y|ies)|shipments?|quotes?|proposals?|pricing|prices?|budgets?|clients?|customers?|meetings?|deadlines?|projects?|reports?|polic(?:y|ies)|renewals?|refunds?|services?|products?|schedules?|managers?|departments?|company|business|terms|agreements?)\b/g,
} as const;

/** Cues that decide the headline, counted per sentence that says them. */
const headlineCues = {
  urgent: /\b(?:asap|urgent\w*|right away|immediately|as soon as possible|emergency|right now)\b/,
  escalation: /\b(?:escalat\w*|(?:speak|talk) to (?:a|your|the) (?:manager|supervisor)|legal action|my lawyer|formal complaint|cancel my (?:account|contract|subscription))\b/,
  confrontation: /\b(?:you people|that's a lie|you're lying|shut up|are you kidding me|don't you dare|listen to me|incompetent|useless)\b/,
  complaint: /\b(?:complain\w*|unacceptable|ridiculous|frustrat\w*|disappoint\w*|not happy|broken|damaged|faulty|wrong|(?:second|third|fourth) time|still (?:not|waiting))\b/,
  empathy: /\b(?:i understand|i'm (?:so )?sorry to hear|that must be|i can imagine|i hear you|i completely understand)\b/,
  support: /\b(?:happy to help|glad to help|let me help|no problem|don't worry|i'll take care of|we'll sort|i can help)\b/,
  playful: /\b(?:haha|hahaha|lol|just kidding|joking|funny|laughs)\b/,
  pleasantry: /\b(?:how are you|great to hear|good to hear|lovely|wonderful|brilliant|perfect|cheers|no worries|you're welcome|take care|appreciate it|nice to|glad|thanks|thank you|have a (?:good|great|nice|lovely) (?:day|one|weekend|evening|christmas))\b/,
} as const;
type HeadlineCue = keyof typeof headlineCues;

/** Words per second of speech: below is slow, above fast (conversational English runs at about 2.5, 150 a minute). */
const slowWordsPerSecond = 2;
const fastWordsPerSecond = 3.2;
/** Formal: at least 2 formal markers per 100 words and under 1.5 casual ones; informal: at least 3 casual ones and more casual than formal. */
const formalMarkersPer100 = 2;
const maxCasualForFormal = 1.5;
const casualMarkersPer100 = 3;
/** A contraction counts as a quarter of a casual marker: careful speech has them too. */
const contractionWeight = 0.25;
/** Energy: high from two signs (exclamations in 15 % of sentences, 3 intensifiers per 100 words, fast speech) or exclamations in 30 %. */
const exclamationShareForHigh = 0.15;
const exclamationShareAlone = 0.3;
const intensifiersPer100ForHigh = 3;
const maxIntensifiersPer100ForLow = 0.5;
/** Terse: at least this many turns averaging under this many words. */
const minTurnsForTerse = 6;
const maxWordsPerTurnForTerse = 5;
/** Business vocabulary per 100 words that makes a call professional, and formal-business when the register is formal. */
const businessPer100 = 1;
const formalBusinessPer100 = 1.5;
/** Pleasantry sentences per sentence that make a positive call friendly. */
const pleasantryShareForFriendly = 0.15;
/** Informational: one party speaks at least this share of the words, over at least this many sentences. */
const dominantShareForInformational = 0.75;
const minSentencesForInformational = 6;
/** Transactional: a business call of these types, under this much speech (seconds). */
const transactionalTypes: ReadonlySet<CallType> = new Set(['scheduling', 'inquiry', 'sales', 'support']);
const maxTransactionalSeconds = 120;
const maxDescriptors = 4;
const maxNotesChars = 400;
const maxPartyNotesChars = 300;

/** What the register rules read from a set of sentences. */
interface RegisterFeatures {
  sentences: number;
  turns: number;
  wordsPerTurn: number;
  per100: Record<keyof typeof markers, number>;
  exclamationShare: number;
  /** Null when the transcript has no timing. */
  wordsPerSecond: number | null;
  /** Sentences matching each headline cue. */
  cues: Record<HeadlineCue, number>;
  sentiment: SentimentLabel;
  dominantShare: number;
  callType: CallType | null;
  speechSeconds: number;
}

/** The headline rules, first match wins; `because` is the note's second sentence. */
const headlineRules: readonly { label: ToneLabel; applies: (features: RegisterFeatures) => boolean; because: string }[] = [
  { label: 'escalated', applies: (f) => f.cues.escalation >= 1 && (f.sentiment === 'negative' || f.sentiment === 'mixed'), because: 'The matter was pushed to escalation in a negative climate.' },
  { label: 'confrontational', applies: (f) => f.cues.confrontation >= 2, because: 'Accusing or hostile phrases were used more than once.' },
  { label: 'urgent', applies: (f) => f.cues.urgent >= 2, because: 'Urgency was stressed more than once.' },
  { label: 'tense', applies: (f) => f.cues.complaint >= 2 && f.sentiment === 'negative', because: 'Complaints were raised in a negative climate.' },
  { label: 'empathetic', applies: (f) => f.cues.empathy >= 2, because: 'Understanding was voiced more than once.' },
  { label: 'supportive', applies: (f) => f.cues.support >= 2, because: 'Offers of help and reassurance recurred.' },
  { label: 'playful', applies: (f) => f.cues.playful >= 2, because: 'Jokes or laughter recurred.' },
  { label: 'terse', applies: (f) => f.turns >= minTurnsForTerse && f.wordsPerTurn < maxWordsPerTurnForTerse, because: 'Turns were short.' },
  { label: 'friendly', applies: (f) => f.sentiment === 'positive' && f.cues.pleasantry / Math.max(1, f.sentences) >= pleasantryShareForFriendly, because: 'Pleasantries recurred in a positive climate.' },
  { label: 'casual', applies: (f) => f.callType === 'personal' || formalityOf(f) === 'informal', because: 'The talk was informal.' },
  { label: 'transactional', applies: (f) => f.callType !== null && transactionalTypes.has(f.callType) && f.speechSeconds < maxTransactionalSeconds, because: 'A short business exchange.' },
  { label: 'formal-business', applies: (f) => formalityOf(f) === 'formal' && f.per100.business >= formalBusinessPer100, because: 'Business matters were discussed in a formal register.' },
  { label: 'informational', applies: (f) => f.dominantShare >= dominantShareForInformational && f.sentences >= minSentencesForInformational, because: 'One side did most of the talking, explaining.' },
  { label: 'professional', applies: (f) => f.per100.business >= businessPer100, because: 'Business matters were discussed.' },
  { label: 'conversational', applies: () => true, because: 'An ordinary exchange.' },
];

/** A descriptor for each headline. */
const headlineDescriptors: Record<ToneLabel, string> = {
  professional: 'businesslike', friendly: 'warm', tense: 'strained', urgent: 'pressing', supportive: 'helpful', transactional: 'efficient',
  escalated: 'heated', empathetic: 'understanding', terse: 'curt', playful: 'lighthearted', confrontational: 'hostile',
  informational: 'explanatory', casual: 'relaxed', 'formal-business': 'formal', conversational: 'easygoing',
};
const formalityDescriptors: Record<Formality, string | null> = { formal: 'polite', 'semi-formal': null, informal: 'informal' };
const energyDescriptors: Record<Level, string | null> = { high: 'energetic', medium: null, low: 'subdued' };
const paceDescriptors: Record<Pace, string | null> = { fast: 'fast-paced', normal: null, slow: 'unhurried' };

/**
 * The call's register (distinct from its sentiment): formality from polite and formal markers
 * against casual words and contractions; energy from exclamations, intensifiers and speech rate;
 * pace from words per second ({@link slowWordsPerSecond}, {@link fastWordsPerSecond}); the headline
 * by the first {@link headlineRules} rule that applies; descriptors from fixed tables. Per party
 * the same from that party's sentences. Null when the call is too short to judge.
 */
export function describeTone(conversation: Conversation, scored: readonly ScoredSentence[], callType: CallType | null): Tone | null {
  if (conversation.tooShort) return null;
  const features = featuresOf(conversation, conversation.utterances, scored, callType);
  const formality = formalityOf(features);
  const energy = energyOf(features);
  const pace = paceOf(features);
  const rule = headlineRules.find((candidate) => candidate.applies(features))!;
  const notes = `The register is ${formality} with ${energy} energy and a ${pace} pace. ${rule.because}`;
  return {
    overall: rule.label,
    descriptors: descriptorsOf(rule.label, formality, energy, pace),
    formality, energy, pace,
    notes: clip(notes, maxNotesChars),
    byParty: {
      userTone: partyTone(conversation, scored, callType, 'USER'),
      contactTone: partyTone(conversation, scored, callType, 'CONTACT'),
    },
  };
}

function partyTone(conversation: Conversation, scored: readonly ScoredSentence[], callType: CallType | null, role: SpeakerRole): PartyTone | null {
  const own = conversation.utterances.filter((utterance) => utterance.segment.role === role);
  if (own.length === 0) return null;
  const features = featuresOf(conversation, own, scored.filter((sentence) => sentence.utterance.segment.role === role), callType);
  const formality = formalityOf(features);
  const energy = energyOf(features);
  const rule = headlineRules.find((candidate) => candidate.applies(features))!;
  const notes = `${capitalise(speakerNameOf(conversation, own[0]!.segment))}: ${rule.label} in a ${formality} register with ${energy} energy.`;
  return { overall: rule.label, descriptors: descriptorsOf(rule.label, formality, energy, paceOf(features)), notes: clip(notes, maxPartyNotesChars) };
}

function featuresOf(conversation: Conversation, utterances: readonly Utterance[], scored: readonly ScoredSentence[], callType: CallType | null): RegisterFeatures {
  const words = Math.max(1, utterances.reduce((total, utterance) => total + utterance.words.length, 0));
  const count = (pattern: RegExp) => utterances.reduce((total, utterance) => total + (utterance.matchText.match(pattern)?.length ?? 0), 0);
  const per100 = Object.fromEntries(Object.entries(markers).map(([name, pattern]) => [name, (count(pattern) / words) * 100])) as RegisterFeatures['per100'];
  const segmentIndexes = new Set(utterances.map((utterance) => utterance.segmentIndex));
  const segments = [...segmentIndexes].map((index) => conversation.segments[index]!);
  const seconds = segments.reduce((total, segment) => total + Math.max(0, segment.endSeconds - segment.startSeconds), 0);
  const wordsBySpeaker = new Map<string, number>();
  for (const utterance of utterances) wordsBySpeaker.set(utterance.segment.speakerId, (wordsBySpeaker.get(utterance.segment.speakerId) ?? 0) + utterance.words.length);
  const cues = Object.fromEntries(Object.entries(headlineCues)
    .map(([name, pattern]) => [name, utterances.filter((utterance) => pattern.test(utterance.matchText)).length])) as RegisterFeatures['cues'];
  return {
    sentences: utterances.length,
    turns: segmentIndexes.size,
    wordsPerTurn: words / Math.max(1, segmentIndexes.size),
    per100,
    exclamationShare: utterances.filter((utterance) => utterance.text.includes('!')).length / Math.max(1, utterances.length),
    wordsPerSecond: seconds > 0 ? words / seconds : null,
    cues,
    sentiment: readSentiment(scored, scored.length >= 2).overall,
    dominantShare: Math.max(...wordsBySpeaker.values(), 0) / words,
    callType,
    speechSeconds: conversation.speechSeconds,
  };
}

function formalityOf(features: RegisterFeatures): Formality {
  const casual = features.per100.casual + features.per100.contraction * contractionWeight;
  if (features.per100.formal >= formalMarkersPer100 && casual < maxCasualForFormal) return 'formal';
  if (casual >= casualMarkersPer100 && casual > features.per100.formal) return 'informal';
  return 'semi-formal';
}

function energyOf(features: RegisterFeatures): Level {
  const rate = features.wordsPerSecond;
  const signs = [features.exclamationShare >= exclamationShareForHigh, features.per100.intensifier >= intensifiersPer100ForHigh, rate !== null && rate > fastWordsPerSecond]
    .filter(Boolean).length;
  if (signs >= 2 || features.exclamationShare >= exclamationShareAlone) return 'high';
  if (features.exclamationShare === 0 && features.per100.intensifier < maxIntensifiersPer100ForLow && rate !== null && rate < slowWordsPerSecond) return 'low';
  return 'medium';
}

function paceOf(features: RegisterFeatures): Pace {
  const rate = features.wordsPerSecond;
  if (rate === null) return 'normal';
  return rate < slowWordsPerSecond ? 'slow' : rate > fastWordsPerSecond ? 'fast' : 'normal';
}

/** The headline's descriptor, then what formality, energy and pace add; 1 to {@link maxDescriptors}. */
function descriptorsOf(label: ToneLabel, formality: Formality, energy: Level, pace: Pace): string[] {
  const all = [headlineDescriptors[label], formalityDescriptors[formality], energyDescriptors[energy], paceDescriptors[pace]]
    .filter((descriptor): descriptor is string => descriptor !== null);
  return [...new Set(all)].slice(0, maxDescriptors);
}
