import type { Analysis } from '../../../domain/analysis/analysisSchema.js';
import type { Analyser } from '../Analyser.js';
import { describeConversation } from './describeConversation.js';
import { extractFacts } from './extractFacts.js';

/** Bumped whenever the built-in analyser's output changes for the same transcript. */
export const builtinAnalyserVersion = '2';

/**
 * The analyser that needs no model (the default when no LLM is installed): the conversation's
 * description (summary, bullets, sections, key points, sentiment, tone, tags) and its facts
 * (dates, amounts, people, commitments, decisions, questions, risks, opportunities, follow-ups,
 * action items), each extracted from the transcript by rules and lexicons, English first.
 * Runs on the event loop: it is linear in the transcript and takes milliseconds.
 */
export function createBuiltinAnalyser(): Analyser {
  return {
    async analyse(input) {
      // Facts first: the description states what the call came to from its action items.
      const facts = extractFacts(input);
      const description = describeConversation(input, facts);
      const analysis: Analysis = {
        schemaVersion: 2,
        ...description,
        ...facts,
        qualityWarnings: [...new Set([...description.qualityWarnings, ...facts.qualityWarnings])],
      };
      return { analysis, producer: { analyser: 'builtin', analyserVersion: builtinAnalyserVersion } };
    },
  };
}
