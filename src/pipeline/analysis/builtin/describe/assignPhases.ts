import type { Phase } from '../../../../domain/analysis/analysisSchema.js';
import type { Segment } from '../../../../domain/transcripts/transcriptSchema.js';
import { contextCue, followUpCue, goodbyeCue, greetingCue, matchTextOf } from './cues.js';

/** The opening is at most the first 12 % of the call's span (greetings rarely last longer; 20 s of a 3 min call). */
const openingShare = 0.12;
/** The closing is at most the last 10 % of the span, plus the run of goodbyes before it. */
const closingShare = 0.1;
/** Talk about what comes after the call counts as follow-up only from 60 % of the span on; earlier it is still the discussion. */
const followUpFrom = 0.6;
/** Neither the opening nor the closing takes more than a third of the segments, however the timing falls. */
const maxPhaseShareOfSegments = 1 / 3;
/** Below this many segments there are no time windows: only greetings open and only goodbyes close. */
const minSegmentsForTimeWindows = 4;
/** Inside the opening window a turn of up to this many words is still opening talk ("Of course.", "Yes, speaking."). */
const maxWordsOfOpeningReply = 12;

/**
 * The phase of each segment (same order as `segments`):
 *
 * - `opening`: the leading run of greetings ("hi", "this is Diane", "how are you") and, in the
 *   first {@link openingShare} of the call's span, of short replies and the reason for calling
 *   ("I'm calling about …"), capped at a third of the segments. The first turn with substance
 *   (the problem itself) starts the middle even inside the window.
 * - `closing`: the trailing run of segments that start in the last {@link closingShare} of the
 *   span or are goodbyes ("bye", "take care", "thanks again"), capped the same way.
 * - `followup`: after {@link followUpFrom} of the span, a segment that speaks of what happens after
 *   the call ("I'll send", "let's talk next week", "by Friday") and says no goodbye, and the
 *   other party's reply right after it ("Yes, Tuesday works"); it stays `followup` inside the
 *   closing window too, since that is where such talk usually falls.
 * - `middle`: everything else.
 *
 * Position is the segment's start within the span from the first start to the last end; when
 * the transcript has no timing (all zero) the segment's index stands in for it.
 */
export function assignPhases(segments: readonly Segment[]): Phase[] {
  const count = segments.length;
  if (count === 0) return [];
  const first = segments[0]!.startSeconds;
  const span = Math.max(...segments.map((segment) => segment.endSeconds)) - first;
  const position = (index: number) => (span > 0 ? (segments[index]!.startSeconds - first) / span : index / count);
  const texts = segments.map((segment) => matchTextOf(segment.text));
  const useWindows = count >= minSegmentsForTimeWindows;
  const maxRun = Math.max(1, Math.floor(count * maxPhaseShareOfSegments));
  const phases: Phase[] = new Array<Phase>(count).fill('middle');

  for (let index = 0; index < Math.min(count, maxRun); index++) {
    const text = texts[index]!;
    const openingTalk = text.split(/\s+/).length <= maxWordsOfOpeningReply || contextCue.test(text);
    const inWindow = useWindows && position(index) < openingShare && openingTalk;
    if (!inWindow && !greetingCue.test(text)) break;
    phases[index] = 'opening';
  }
  for (let index = count - 1; index >= Math.max(0, count - maxRun); index--) {
    if (phases[index] !== 'middle') break;
    const inWindow = useWindows && position(index) >= 1 - closingShare;
    if (!inWindow && !goodbyeCue.test(texts[index]!)) break;
    phases[index] = 'closing';
  }
  let previousWasFollowUpTalk = false;
  for (let index = 0; index < count; index++) {
    const text = texts[index]!;
    const followUpTalk = phases[index] !== 'opening' && position(index) >= followUpFrom && followUpCue.test(text) && !goodbyeCue.test(text);
    const reply = previousWasFollowUpTalk && phases[index] === 'middle' && segments[index]!.speakerId !== segments[index - 1]!.speakerId;
    if (followUpTalk || reply) phases[index] = 'followup';
    previousWasFollowUpTalk = followUpTalk;
  }
  return phases;
}
