import type { Analysis } from '../../../src/domain/analysis/analysisSchema.js';
import type { Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { transcriptFromSegments } from '../../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../../src/pipeline/speakers/resolveSpeakers.js';

/** Wednesday 4 March 2026, 10:00 in London. */
export const recordedAt = Date.parse('2026-03-04T10:00:00Z');
export const timeZone = 'Europe/London';

/** A short call between Diane (the user) and Sheila (the contact) with a date, an amount, an email and a phone number. */
export function contractCall(): Transcript {
  return contractCallWith();
}

/** {@link contractCall} with `extraLines` said by Sheila before the goodbye. */
export function contractCallWith(...extraLines: string[]): Transcript {
  const lines: [string, string][] = [
    ['A', 'Hi Sheila, this is Diane from Northwind Legal.'],
    ['B', 'Hello Diane. I looked at the contract, the fee of $12,500 is fine.'],
    ['A', 'Great. I will send the signed copy to sheila dot ross at acme dot com by Friday.'],
    ['B', 'Perfect. You can also call me on 555 0142 if anything comes up.'],
    ['A', 'Will do. Let us meet next Tuesday at 3 with my colleague Priya Shah.'],
    ...extraLines.map((line): [string, string] => ['B', line]),
    ['B', 'Sounds good. Bye.'],
  ];
  const transcript = transcriptFromSegments({
    segments: lines.map(([speaker, text], index) => ({ sourceSpeakerId: speaker, startSeconds: index * 6, endSeconds: index * 6 + 5.5, text })),
  }, { callId: '5f0c2b1a-3d4e-4f60-8a7b-9c0d1e2f3a4b', createdAt: recordedAt });
  return resolveSpeakers(transcript, { userDisplayName: 'Diane', metadata: { contactName: 'Sheila Ross', direction: 'OUTGOING' } });
}

/** An Analysis v2 with every list empty: tests fill in what they need. */
export function emptyAnalysis(overrides: Partial<Analysis> = {}): Analysis {
  return {
    schemaVersion: 2, callType: null, suggestedTitle: null, oneLineSummary: null, conversationOutcome: null, executiveSummary: null,
    executiveSummaryBullets: [], sections: [], keyDiscussionPoints: [], actionItems: [], followUps: [], importantDates: [], decisions: [],
    commitments: [], openQuestions: [], risks: [], opportunities: [], peopleMentioned: [], numbersAndAmounts: [],
    sentiment: null, tone: null, tags: [], qualityWarnings: [],
    ...overrides,
  };
}
