/** Minimal types for `wink-sentiment` (CommonJS, ships none): AFINN-165 scoring with negation and bigrams. */
declare module 'wink-sentiment' {
  /** One token of the scored phrase, tagged by wink-tokenizer (`word`, `punctuation`, `emoji`, …). */
  interface WinkSentimentToken {
    value: string;
    tag: string;
    /** The token's AFINN score in [-5, 5], sign flipped when negated; absent for neutral tokens. */
    score?: number;
    /** Set when a negation ("not", "n't", …) up to two tokens before flipped the score. */
    negation?: boolean;
    /** Set on the first token of a scored two-word phrase ("well done"): the number of extra tokens grouped. */
    grouped?: number;
  }
  interface WinkSentimentResult {
    /** Sum of the token scores. */
    score: number;
    /** Mean score of the scored tokens, damped for long phrases: in [-5, 5]. */
    normalizedScore: number;
    /** Absent when the phrase has no tokens. */
    tokenizedPhrase?: WinkSentimentToken[];
  }
  function sentiment(phrase: string): WinkSentimentResult;
  export = sentiment;
}
