import type { Static } from 'typebox';
import type { DecisionSchema, OpportunitySchema, RiskSchema } from '../../../../domain/analysis/analysisSchema.js';
import type { StatementWords } from './FactLexicon.js';
import { clip } from '../../text/clip.js';
import type { Sentence } from '../../text/sentences.js';

export type Decision = Static<typeof DecisionSchema>;
export type Risk = Static<typeof RiskSchema>;
export type Opportunity = Static<typeof OpportunitySchema>;

/** Schema limit of a statement's text. */
const MAX_STATEMENT_LENGTH = 300;

export interface Statements {
  decisions: Decision[];
  risks: Risk[];
  opportunities: Opportunity[];
}

/**
 * Decisions, risks and opportunities: sentences stating one by a cue of the lexicon, the
 * sentence as the text. Questions state none ("are you worried about …?"). A decision is made
 * by its speaker and is not one when negated ("we haven't decided"). A risk's cue must survive
 * the removal of negated phrases ("no problem", "don't worry"); its severity is high for a
 * severe cue ("can't guarantee") or an intensifier ("a major delay"), low for a softener alone
 * ("a slight delay", "might not"), else medium. An opportunity is not one when negated
 * ("not interested in"). The same sentence text is listed once.
 */
export function findStatements(sentences: readonly Sentence[], words: StatementWords): Statements {
  const statements: Statements = { decisions: [], risks: [], opportunities: [] };
  const seen = { decisions: new Set<string>(), risks: new Set<string>(), opportunities: new Set<string>() };
  const firstTime = (list: keyof typeof seen, text: string) => !seen[list].has(text.toLowerCase()) && Boolean(seen[list].add(text.toLowerCase()));
  for (const sentence of sentences) {
    if (sentence.isQuestion) continue;
    const text = clip(sentence.text, MAX_STATEMENT_LENGTH);
    const sourceSegmentIds = [sentence.segment.id];
    if (words.decisions.cues.some((cue) => cue.test(sentence.text)) && !words.decisions.negations.test(sentence.text) && firstTime('decisions', text)) {
      statements.decisions.push({ text, madeBySpeakerId: sentence.segment.speakerId, sourceSegmentIds });
    }
    const severity = riskSeverity(sentence.text, words.risks);
    if (severity && firstTime('risks', text)) statements.risks.push({ text, severity, sourceSegmentIds });
    if (words.opportunities.cues.some((cue) => cue.test(sentence.text)) && !words.opportunities.negations.test(sentence.text) && firstTime('opportunities', text)) {
      statements.opportunities.push({ text, sourceSegmentIds });
    }
  }
  return statements;
}

/** The severity of the risk a sentence states, or null when it states none. */
function riskSeverity(text: string, risks: StatementWords['risks']): Risk['severity'] | null {
  const affirmed = text.replace(risks.negations, ' ');
  const cues = risks.cues.filter((cue) => cue.pattern.test(affirmed));
  if (cues.length === 0) return null;
  const intensified = risks.intensifiers.test(affirmed);
  const softened = risks.softeners.test(affirmed);
  if (cues.some((cue) => cue.severe) || (intensified && !softened)) return 'high';
  if (softened && !intensified) return 'low';
  return 'medium';
}
