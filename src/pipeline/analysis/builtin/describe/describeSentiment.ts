import type { Analysis, Phase } from '../../../../domain/analysis/analysisSchema.js';
import type { SpeakerRole } from '../../../../domain/transcripts/transcriptSchema.js';
import { speakerNameOf, type Conversation } from './readConversation.js';
import { quoteCues, readSentiment, type ScoredSentence, type SentimentReading } from './scoreSentiment.js';
import { capitalise, clip } from '../../text/clip.js';

type Sentiment = NonNullable<Analysis['sentiment']>;
type PartySentiment = NonNullable<Sentiment['userSentiment']>;
type ProgressionItem = Sentiment['progression'][number];

/** A party's sentiment is judged from at least this many sentences and words; below, `unclear`. */
const minPartySentences = 2;
const minPartyWords = 8;
/** The discussion (middle) is split in two progression steps when it has at least this many sentences and there is room. */
const minSentencesToSplitMiddle = 6;
const maxProgressionItems = 4;
/** Progression steps cite the segments of their most charged sentences, at most this many. */
const citedSentencesPerStep = 3;
/** Schema limits (characters). */
const maxReasonChars = 400;
const maxNotesChars = 300;
const maxNoteChars = 200;
const maxSignals = 6;

/**
 * Emotional signals, each a fixed adjective named only when the call says one of its cues.
 * Order is the tie-break when more than {@link maxSignals} are found.
 */
const emotionalSignalCues: readonly [signal: string, cue: RegExp][] = [
  ['frustrated', /\bfrustrat\w*|\bfed up\b|\bsick of\b/],
  ['angry', /\b(?:angry|furious|livid|unacceptable|ridiculous|outrageous)\b/],
  ['urgent', /\b(?:asap|urgent\w*|right away|immediately|as soon as possible|emergency)\b/],
  ['worried', /\b(?:worr(?:y|ied|ying)|concerned|nervous|anxious)\b/],
  ['disappointed', /\bdisappoint\w*|\blet down\b/],
  ['confused', /\bconfus\w*|\bdon't understand\b|\bdoesn't make sense\b|\bnot sure what\b/],
  ['impatient', /\bstill waiting\b|\bhow much longer\b|\b(?:second|third|fourth|fifth) time\b|\bkeep(?:s)? happening\b/],
  ['apologetic', /\b(?:sorry|apologi[sz]e\w*|apologies|my bad|my fault)\b/],
  ['grateful', /\bthank you so much\b|\bthanks so much\b|\bthank you very much\b|\breally appreciate\b|\bmuch appreciated\b|\bso grateful\b|\bthanks a lot\b/],
  ['pleased', /\b(?:pleased|delighted|thrilled|happy with|glad)\b/],
  ['relieved', /\breliev\w*|\bwhat a relief\b/],
  ['excited', /\bexcit\w*|\bcan't wait\b/],
  ['hesitant', /\bi'm not sure\b|\bi don't know if\b|\blet me think about it\b/],
];

const phaseNames: Record<Phase, string> = { opening: 'Opening', middle: 'Discussion', followup: 'Follow-up talk', closing: 'Closing' };

/**
 * The call's sentiment: from its sentences as `scoreSentiment` scored them, the call and each party read from
 * their sentences (see `readSentiment`), the progression over the phases present in call order
 * (a long discussion split into an early and a later half, so a turn from complaint to relief
 * shows; to make room, follow-up talk joins the closing), and the emotional signals whose cues
 * were said.
 * `unclear` with a null score when the call is too short; null when nothing was said.
 */
export function describeSentiment(conversation: Conversation, scored: readonly ScoredSentence[]): Sentiment | null {
  if (conversation.utterances.length === 0) return null;
  const enough = !conversation.tooShort;
  const reading = readSentiment(scored, enough);
  return {
    overall: reading.overall,
    score: reading.score,
    reason: clip(reasonFor(reading), maxReasonChars),
    userSentiment: partySentiment(conversation, scored, 'USER', enough),
    contactSentiment: partySentiment(conversation, scored, 'CONTACT', enough),
    progression: enough ? progressionOf(scored) : [],
    emotionalSignals: emotionalSignals(conversation),
  };
}

function reasonFor(reading: SentimentReading): string {
  if (reading.overall === 'unclear') return 'Too little speech to judge the sentiment.';
  const parts = [
    reading.positiveCues.length > 0 ? `positive cues such as ${quoteCues(reading.positiveCues)}` : '',
    reading.negativeCues.length > 0 ? `negative cues such as ${quoteCues(reading.negativeCues)}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return `${capitalise(reading.overall)} overall: hardly any positive or negative words were said.`;
  return `${capitalise(reading.overall)} overall, from ${parts.join('; ')}.`;
}

/** A party's sentiment from its sentences; null when the party said nothing, `unclear` when it (or the call) said too little. */
function partySentiment(conversation: Conversation, scored: readonly ScoredSentence[], role: SpeakerRole, enough: boolean): PartySentiment | null {
  const own = scored.filter((sentence) => sentence.utterance.segment.role === role);
  if (own.length === 0) return null;
  const name = speakerNameOf(conversation, own[0]!.utterance.segment);
  const words = own.reduce((total, sentence) => total + sentence.utterance.words.length, 0);
  const reading = readSentiment(own, enough && own.length >= minPartySentences && words >= minPartyWords);
  const cues = reading.overall === 'negative' ? reading.negativeCues : reading.overall === 'positive' ? reading.positiveCues
    : [...reading.positiveCues.slice(0, 1), ...reading.negativeCues.slice(0, 1)];
  const notes = reading.overall === 'unclear' ? `Too little speech from ${name} to judge.`
    : `${capitalise(name)}: ${reading.overall}${cues.length > 0 ? `, with cues such as ${quoteCues(cues)}` : ', with few sentiment-bearing words'}.`;
  return { overall: reading.overall, score: reading.score, notes: clip(notes, maxNotesChars) };
}

interface Step {
  phase: Phase;
  name: string;
  sentences: ScoredSentence[];
}

/** One step per phase present, in call order; a long discussion in two halves when there is room. */
function progressionOf(scored: readonly ScoredSentence[]): ProgressionItem[] {
  const steps: Step[] = [];
  for (const sentence of scored) {
    const { phase } = sentence.utterance;
    const step = steps.find((candidate) => candidate.phase === phase);
    if (step) step.sentences.push(sentence);
    else steps.push({ phase, name: phaseNames[phase], sentences: [sentence] });
  }
  const followUp = steps.findIndex((step) => step.phase === 'followup');
  const closing = steps.find((step) => step.phase === 'closing');
  const splitMiddle = (steps.find((step) => step.phase === 'middle')?.sentences.length ?? 0) >= minSentencesToSplitMiddle;
  if (splitMiddle && steps.length >= maxProgressionItems && followUp >= 0 && closing) {
    // Room for the turn in the discussion: the end of the call (follow-up talk and goodbyes) becomes one step.
    closing.sentences = [...steps[followUp]!.sentences, ...closing.sentences].sort((first, second) => first.utterance.index - second.utterance.index);
    closing.name = 'Follow-up and closing';
    steps.splice(followUp, 1);
  }
  const middle = steps.findIndex((step) => step.phase === 'middle');
  if (splitMiddle && steps.length < maxProgressionItems) {
    const { sentences } = steps[middle]!;
    const half = Math.ceil(sentences.length / 2);
    steps.splice(middle, 1,
      { phase: 'middle', name: 'Early discussion', sentences: sentences.slice(0, half) },
      { phase: 'middle', name: 'Later discussion', sentences: sentences.slice(half) });
  }
  return steps.slice(0, maxProgressionItems).map((step) => {
    const reading = readSentiment(step.sentences, true);
    const cues = reading.overall === 'negative' ? reading.negativeCues : reading.overall === 'positive' ? reading.positiveCues : [];
    const charged = [...step.sentences]
      .sort((first, second) => Math.abs(second.normalized) - Math.abs(first.normalized) || first.utterance.index - second.utterance.index)
      .slice(0, citedSentencesPerStep)
      .sort((first, second) => first.utterance.index - second.utterance.index);
    return {
      phase: step.phase,
      overall: reading.overall,
      note: clip(`${step.name}: ${reading.overall}${cues.length > 0 ? ` (${quoteCues(cues.slice(0, 2))})` : ''}.`, maxNoteChars),
      sourceSegmentIds: [...new Set(charged.map((sentence) => sentence.utterance.segment.id))],
    };
  });
}

/** The signals whose cues the call says, most often said first, at most {@link maxSignals}. */
function emotionalSignals(conversation: Conversation): string[] {
  return emotionalSignalCues
    .map(([signal, cue], order) => ({ signal, order, count: conversation.utterances.filter((utterance) => cue.test(utterance.matchText)).length }))
    .filter(({ count }) => count > 0)
    .sort((first, second) => second.count - first.count || first.order - second.order)
    .slice(0, maxSignals)
    .map(({ signal }) => signal);
}
