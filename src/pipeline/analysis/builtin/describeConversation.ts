import type { Analysis } from '../../../domain/analysis/analysisSchema.js';
import type { AnalysisInput } from '../Analyser.js';
import { buildGroundingCorpus } from '../grounding/groundingCorpus.js';
import { findCallOutcome } from './describe/callOutcome.js';
import { classifyCallType, classifyOutcome } from './describe/classifyCall.js';
import { lexiconFor } from './facts/lexiconFor.js';
import { describeSentiment } from './describe/describeSentiment.js';
import { describeTone } from './describe/describeTone.js';
import { groupSections } from './describe/groupSections.js';
import { pickDiscussionPoints } from './describe/pickDiscussionPoints.js';
import { pickTags } from './describe/rankKeyPhrases.js';
import { readConversation } from './describe/readConversation.js';
import { scoreSentences } from './describe/scoreSentences.js';
import { scoreSentiment } from './describe/scoreSentiment.js';
import { summariseCall } from './describe/summariseCall.js';
import { titleCall } from './describe/titleCall.js';

/** The half of an Analysis v2 that describes the conversation, with the warnings met while describing it. */
export type ConversationDescription = Pick<Analysis,
  'callType' | 'suggestedTitle' | 'oneLineSummary' | 'conversationOutcome' | 'executiveSummary' | 'executiveSummaryBullets'
  | 'sections' | 'keyDiscussionPoints' | 'sentiment' | 'tone' | 'tags'> & { qualityWarnings: string[] };

export const emptyTranscriptWarning = 'The transcript has no speech to analyse';
export const tooShortWarning = 'The call is too short for a full analysis';

/**
 * The built-in analyser's description of a call (with its action items and dates, when given, the
 * headline and the first bullet say what the call came to: see `findCallOutcome`), from rules, heuristics and lexicons (English
 * first; no language model). It never invents: every text is either taken from the transcript
 * (quoted or lightly trimmed, attributed to the speaker's display name) or a fixed template filled
 * with facts of the transcript and metadata (call type, outcome, keywords as said, speaker names).
 *
 * How each part is made: `readConversation` (sentences and phases), `scoreSentences` (keywords
 * and sentence informativeness), `summariseCall` (prose and bullets), `groupSections`,
 * `pickDiscussionPoints`, `classifyCall` (type and outcome), `titleCall`, `describeSentiment`,
 * `describeTone`, `pickTags`. A call too short to judge (under 15 s of speech or 3 sentences) gets
 * what can honestly be said (nulls and empty lists elsewhere) and a quality warning; an empty
 * transcript gets nulls, empty lists and a warning. Pure and synchronous.
 */
export function describeConversation(input: AnalysisInput, facts?: Pick<Analysis, 'actionItems' | 'importantDates'>): ConversationDescription {
  const conversation = readConversation(input);
  if (conversation.utterances.length === 0) {
    return {
      callType: null, suggestedTitle: null, oneLineSummary: null, conversationOutcome: null, executiveSummary: null,
      executiveSummaryBullets: [], sections: [], keyDiscussionPoints: [], sentiment: null, tone: null, tags: [],
      qualityWarnings: [emptyTranscriptWarning],
    };
  }
  const salience = scoreSentences(conversation);
  const scored = scoreSentiment(conversation.utterances);
  const agreedAppointments = (facts?.actionItems ?? []).filter((item) => item.intent === 'meeting' && item.intentMetadata.proposedAt !== undefined).length;
  const callType = classifyCallType(conversation, agreedAppointments);
  const conversationOutcome = classifyOutcome(conversation, salience, callType);
  const tags = pickTags(conversation, salience.keywordWeights);
  const outcome = facts ? findCallOutcome(facts.actionItems ?? [], facts.importantDates ?? [], lexiconFor(input.transcript.language).lexicon.actions,
    // The outcome is prose without ISO dates: the corpus needs no date reading.
    buildGroundingCorpus(input.transcript, input.metadata, input.recordedAt, input.timeZone, { dates: false }), conversation.speakerNames) : null;
  const summary = summariseCall(conversation, salience, outcome);
  const qualityWarnings = conversation.tooShort ? [tooShortWarning] : summary.warnings;
  return {
    callType,
    ...titleCall(conversation, callType, conversationOutcome, tags, outcome),
    conversationOutcome,
    executiveSummary: summary.executiveSummary,
    executiveSummaryBullets: summary.executiveSummaryBullets,
    sections: conversation.tooShort ? [] : groupSections(conversation, salience),
    keyDiscussionPoints: pickDiscussionPoints(conversation, salience),
    sentiment: describeSentiment(conversation, scored),
    tone: describeTone(conversation, scored, callType),
    tags,
    qualityWarnings,
  };
}
