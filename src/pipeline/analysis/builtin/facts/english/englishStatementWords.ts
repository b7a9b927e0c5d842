import type { StatementWords } from '../FactLexicon.js';

const A = "['’]";

/** Decision, risk, opportunity and open-question cues of English calls. */
export const englishStatementWords: StatementWords = {
  decisions: {
    cues: [
      new RegExp(`\\b(?:we|I)(?:${A}ve| have)? (?:decided|agreed)\\b`, 'i'),
      /\b(?:decided|agreed) to\b/i,
      new RegExp(`\\b(?:let${A}?s|we${A}ll|I${A}ll|we${A}re going to|we are going to) go (?:with|ahead)\\b`, 'i'),
      /\bgo ahead with\b/i,
      new RegExp(`\\b(?:it${A}s|we${A}re) agreed\\b`, 'i'),
      new RegExp(`\\bthat works,? let${A}?s\\b`, 'i'),
      new RegExp(`\\blet${A}?s do (?:it|that|this)\\b`, 'i'),
      new RegExp(`\\b(?:it${A}s|that${A}s) a deal\\b`, 'i'),
      new RegExp(`\\b(?:we${A}ll|I${A}ll) (?:take (?:it|the)|proceed)\\b`, 'i'),
      /\bsettled? on\b/i,
      /\bfinal decision\b/i,
    ],
    negations: new RegExp(`\\b(?:not|never|haven${A}t|hasn${A}t|didn${A}t|yet to|n${A}t)\\b[^.]{0,16}\\b(?:decided|agreed)\\b|\\bif (?:we|you) (?:decide|agree)`, 'i'),
  },
  risks: {
    cues: [
      { pattern: /\brisk(?:s|y)?\b/i },
      { pattern: /\bconcern(?:s|ed)?\b/i },
      { pattern: /\bworr(?:y|ied|ies|ying)\b/i },
      { pattern: /\b(?:might|may) not\b/i },
      { pattern: /\bdelay(?:s|ed)?\b/i },
      { pattern: /\bproblems?\b/i },
      { pattern: /\b(?:an|the|some|big|major|minor|small|technical|real) issues?\b/i },
      { pattern: /\bbehind schedule\b|\bover budget\b/i },
      { pattern: /\bblock(?:er|ers|ed|ing)\b/i },
      { pattern: /\bunlikely\b/i },
      { pattern: /\btight (?:deadline|timeline|schedule|budget)\b/i },
      { pattern: /\bshortage\b|\bout of stock\b|\bback-?order(?:ed)?\b/i },
      { pattern: /\bcomplain(?:t|ts|ed|ing)?\b/i },
      { pattern: /\bcan(?:['’]t|not) guarantee\b/i, severe: true },
      { pattern: /\b(?:won['’]t|will not|can['’]t|cannot) (?:make it|meet the deadline|deliver|afford)\b/i, severe: true },
      { pattern: /\b(?:legal action|lawsuit|sue|cancel the contract|terminate)\b/i, severe: true },
    ],
    negations: new RegExp(
      `\\b(?:no|not a|not any|without|never a|no real) (?:problems?|issues?|concerns?|risks?|delays?|worries)\\b|\\bno worries\\b|`
      + `\\bdon${A}t worry\\b|\\bnot (?:worried|concerned)\\b|\\bnothing to worry about\\b|\\bnot a problem\\b`,
      'gi',
    ),
    intensifiers: /\b(?:very|really|seriously|serious|major|critical|significant|big|huge|extremely|severe)\b/i,
    softeners: /\b(?:slight(?:ly)?|minor|small|a bit|a little|maybe|possibly|perhaps|might|may|potential(?:ly)?)\b/i,
  },
  opportunities: {
    cues: [
      /\binterested in\b/i,
      /\bexpan(?:d|ding|sion)\b/i,
      /\bupsell\b|\bupgrade\b/i,
      /\b(?:another|a second|a bigger|a larger|a repeat|more|further) orders?\b|\breorder\b/i,
      /\bwould love to\b/i,
      /\b(?:keen|eager) to\b/i,
      /\blooking (?:to buy|for more)\b/i,
      /\b(?:more|additional|extra) (?:licen[cs]es|seats|units|users|locations|stores|sites)\b/i,
      /\breferrals?\b|\bpartnership\b/i,
    ],
    negations: new RegExp(`\\b(?:not|n${A}t|no longer|never)\\s+(?:\\w+\\s+)?(?:interested|keen|eager|looking|love|planning|expand)`, 'i'),
  },
  openQuestions: {
    unknownAnswer: new RegExp(
      `\\b(?:I|we) (?:don${A}t|do not) know\\b|\\bnot sure\\b|\\bno idea\\b|`
      + `\\b(?:I${A}ll|I will|I${A}d|I would|we${A}ll|I|we) (?:have|need) to (?:check|ask|find out|look into)\\b|`
      + `\\blet me (?:check|find out|get back)\\b|\\bI can${A}?t (?:say|tell|confirm)\\b|\\bget back to you\\b|\\bhard to say\\b`,
      'i',
    ),
    uncertainty: new RegExp(
      `\\b(?:I${A}m|we${A}re|I am|we are) (?:still )?(?:not sure|unsure) (?:whether|if|when|how|what|who|why|about)\\b|`
      + `\\b(?:I|we) (?:still )?(?:don${A}t|do not) know (?:whether|if|when|how|what|who|why)\\b|`
      + `\\b(?:still|yet) to be (?:decided|confirmed|determined)\\b|\\b(?:remains|is still) (?:open|unclear|unresolved)\\b`,
      'i',
    ),
    rhetorical: new RegExp(
      `^(?:right|okay|ok|yeah|really|sorry|pardon|hello|hi|what)\\??$|\\b(?:right|you know|isn${A}t it|don${A}t you think|okay|ok|yeah)\\?$|`
      + `^how (?:are|is|have) (?:you|things|it|everything)(?: been)?(?: going| doing)?(?: today)?\\?$|`
      + `^(?:how${A}s|how is) (?:it|everything|life|things|your day)(?: going)?\\?$|^can you hear me\\b|^are you (?:still )?there\\b|`
      + `^(?:is )?(?:this|that|now) (?:a good time|okay|ok)\\b`,
      'i',
    ),
  },
};
