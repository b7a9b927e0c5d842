import type { CallMetadata } from '../../src/domain/calls/callTypes.js';
import type { AnalysisInput } from '../../src/pipeline/analysis/Analyser.js';
import { transcriptFromSegments } from '../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../src/pipeline/speakers/resolveSpeakers.js';

/**
 * Short test dialogues as analysis input: the calls of the analyser's unit tests
 * (test/pipeline/analysis/builtin) and of the dialogue battery (./dialogueBattery.ts), built the
 * way the pipeline builds a call (segments → transcript → speakers resolved).
 */

/** Wednesday 4 March 2026, 10:00 in London (GMT, offset 0): "next Tuesday" is 10 March. */
export const RECORDED_AT = Date.parse('2026-03-04T10:00:00Z');
export const TIME_ZONE = 'Europe/London';

export const defaultMetadata: CallMetadata = { contactName: 'Sheila', phoneNumber: '+44 20 7946 0958', organization: 'Acme Supplies', direction: 'OUTGOING' };

/** A turn of a test call: `D` is Diane (the user), `S` Sheila (the contact), `X` a third voice. */
export type Turn = [speaker: 'D' | 'S' | 'X', text: string];

/** Seconds each test turn lasts: long enough that a call of a few turns is no "short call". */
export const TURN_SECONDS = 6;

/**
 * The analysis input of a call made of `turns`, speakers resolved as the pipeline would: Diane
 * greets Sheila by name at the start unless `greeting` is false (then the speakers keep their
 * "Speaker N" labels when the text names nobody).
 */
export function callOf(turns: Turn[], options: { metadata?: CallMetadata; greeting?: boolean; language?: string } = {}): AnalysisInput {
  const metadata = options.metadata ?? defaultMetadata;
  const opening: Turn[] = options.greeting === false ? [] : [['S', 'Hello, Sheila speaking.'], ['D', 'Hi Sheila, this is Diane.']];
  const all = [...opening, ...turns];
  const transcript = transcriptFromSegments({
    language: options.language ?? 'en',
    segments: all.map(([speaker, text], index) => ({ sourceSpeakerId: speaker, startSeconds: index * TURN_SECONDS, endSeconds: (index + 1) * TURN_SECONDS - 0.5, text })),
  }, { callId: '5b0c3f43-8a0e-4f5e-9b7c-2f4f4f0c9a11', createdAt: RECORDED_AT });
  const resolved = options.greeting === false ? transcript : resolveSpeakers(transcript, { userDisplayName: 'Diane', metadata });
  return { transcript: resolved, metadata, recordedAt: RECORDED_AT, timeZone: TIME_ZONE };
}
