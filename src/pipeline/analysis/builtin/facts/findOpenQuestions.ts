import type { Static } from 'typebox';
import type { OpenQuestionSchema } from '../../../../domain/analysis/analysisSchema.js';
import type { StatementWords } from './FactLexicon.js';
import { clip } from '../../text/clip.js';
import type { Sentence } from '../../text/sentences.js';

export type OpenQuestion = Static<typeof OpenQuestionSchema>;

/** A question counts as answered by the other side's next this-many turns. */
export const ANSWER_WINDOW_TURNS = 2;

/** Questions shorter than this many words ("Sorry?", "And you?") ask for nothing worth tracking. */
const MIN_QUESTION_WORDS = 3;

/**
 * What the call left open:
 * - a question nobody else answered in their next {@link ANSWER_WINDOW_TURNS} turns, or answered
 *   only with "I don't know" / "I'll have to check" (then that reply's segment is cited too);
 * - a statement that something is still open ("I'm not sure whether the budget covers it").
 * Rhetorical and social questions ("right?", "how are you?") and requests (`isRequest`: they
 * become action items) are not listed. The asker is the question's speaker.
 */
export function findOpenQuestions(
  sentences: readonly Sentence[], words: StatementWords['openQuestions'], isRequest: (sentence: Sentence) => boolean,
): OpenQuestion[] {
  const open: OpenQuestion[] = [];
  sentences.forEach((sentence, position) => {
    const asker = sentence.segment.speakerId;
    if (!sentence.isQuestion) {
      if (words.uncertainty.test(sentence.text)) open.push({ text: clip(sentence.text, 300), askedBySpeakerId: asker, sourceSegmentIds: [sentence.segment.id] });
      return;
    }
    if (sentence.text.split(/\s+/).length < MIN_QUESTION_WORDS || words.rhetorical.test(sentence.text) || isRequest(sentence)) return;
    // A later question of the same turn would be answered by the same reply.
    const sameTurnLater = sentences.slice(position + 1).find((later) => later.segmentIndex === sentence.segmentIndex && later.isQuestion);
    if (sameTurnLater) return;
    const replies = answeringTurns(sentences, sentence);
    if (replies.some((reply) => !words.unknownAnswer.test(reply.text))) return;
    const unknown = replies[0];
    open.push({
      text: clip(sentence.text, 300),
      askedBySpeakerId: asker,
      sourceSegmentIds: unknown ? [sentence.segment.id, unknown.segment.id] : [sentence.segment.id],
    });
  });
  return open;
}

/**
 * The other speakers' next {@link ANSWER_WINDOW_TURNS} turns after the question, each as its
 * segment's whole text: a reply further away answers something else.
 */
function answeringTurns(sentences: readonly Sentence[], question: Sentence): { text: string; segment: Sentence['segment'] }[] {
  const turns = new Map<number, Sentence['segment']>();
  for (const later of sentences) {
    if (later.segmentIndex > question.segmentIndex && later.segment.speakerId !== question.segment.speakerId) turns.set(later.segmentIndex, later.segment);
  }
  return [...turns.values()].slice(0, ANSWER_WINDOW_TURNS).map((segment) => ({ text: segment.text, segment }));
}
