/**
 * Scripted calls for `npm run eval:analysis`: English phone calls between the user and a
 * contact, as a supplied transcript (`DiarizedTranscriptInput`, the format `callscope
 * analyze-transcript` reads), with the action items, call type and sentiment a careful reader
 * takes from them. This is the ground truth; every expected value follows from the script:
 *
 * - An action item is a commitment or a request someone agreed to, made in the call ("I'll send
 *   you…", "could you call me back…" answered with "I'll…"). Past actions, things done during the
 *   call, conditional threats or advice ("if it gets worse…"), and what third-party carriers do
 *   are not action items. The scripts avoid such lines where they would be ambiguous, and keep
 *   them where the point of the call is that they must NOT become actions.
 * - `ownerRole` is the role of the speaker who takes the action on. It is `null` when nobody in
 *   particular does ("someone should look into it"), when a third party does ("my colleague Priya
 *   Shah will ring you"), or when the owner is not a speaker of the transcript (the absent party
 *   of a voicemail): owner reconciliation never invents an owner.
 * - `dueDate` is worked out by hand from `recordedAt` in the call's `timeZone` (the weekday is in
 *   each call's comment; March 2026 starts on a Sunday, so the 4th is a Wednesday). "Today" and
 *   "tonight" are the call's own date, "by Friday" that Friday, "next Tuesday" said on a
 *   Wednesday the Tuesday six days later, "by the end of the month" the month's last day. For a
 *   meeting it is the meeting's date; it is `null` when no date is said.
 * - `intentMetadata` holds only the fields the call states. `proposedAt` and `remindAt` are a
 *   prefix of the local wall-clock time in the call's time zone (`2026-03-10T15:00`; a date alone
 *   when no time was said). A bare "at 3" for a business meeting is 15:00. Phone numbers are
 *   written as said; they are compared by their digits.
 * - `titleKeywords` are words any sensible title or description of the item contains; they are
 *   matched case-insensitively, punctuation ignored, each at the start of a word (so `escalat`
 *   matches "escalate" and "escalation", `check` matches "check-up").
 * - `callType` and `sentiment` are given only where the call leaves no doubt.
 *
 * Every call opens with a greeting that names both parties ("Hi Sheila, it's Diane from…"), so
 * speaker resolution gives each speaker its role and name; `speakerRoles` says which, and the
 * tests check it (the expected owners depend on it). Segments are timed at an even speaking rate
 * ({@link wordsPerSecond}) with a short gap between turns.
 */
import type { CallMetadata } from '../../src/domain/calls/callTypes.js';
import type { ActionIntent, callTypes, providerHints, toneLabels } from '../../src/domain/analysis/analysisSchema.js';
import type { DiarizedTranscriptInput } from '../../src/pipeline/normalization/diarizedTranscriptInput.js';

export type ExpectedOwnerRole = 'USER' | 'CONTACT' | null;
/**
 * Which set of everyday calls a call belongs to (see `AnalysisCall.everyday`): the sets up to
 * `round7`, and `quiet`, are tuned on; those of {@link judgeSets} judge the analyser.
 */
export type EverydaySet = 'tune' | 'heldout' | 'unseen' | 'round4' | 'round5' | 'round6' | 'round7' | 'round8' | 'round9' | 'round10' | 'round11' | 'round12' | 'quiet';
/**
 * The judges: held-out sets never read while changing the analyser, on which the targets are
 * measured. `eval:analysis` reports them by their figures only, and tests check only their form
 * (schema, keywords said in the call), never how the analyser or speaker resolution does on them.
 */
export const judgeSets: readonly EverydaySet[] = ['round8', 'round9', 'round10', 'round11', 'round12'];
/** Whether a call belongs to a judge set ({@link judgeSets}). */
export const isJudgeCall = (call: Pick<AnalysisCall, 'everyday'>): boolean => call.everyday !== undefined && judgeSets.includes(call.everyday);
export type ExpectedSentiment = 'positive' | 'negative' | 'neutral' | 'mixed';

/** The intentMetadata fields a call states; see `metadataFieldChecks` for how each is compared. */
export interface ExpectedIntentMetadata {
  providerHint?: (typeof providerHints)[number];
  /** Prefix of the local wall-clock time in the call's time zone: `YYYY-MM-DDTHH:MM` or `YYYY-MM-DD`. */
  proposedAt?: string;
  /** As `proposedAt`. */
  remindAt?: string;
  durationMinutes?: number;
  /** Each must be among the item's attendees (by name; a first name matches a full name). */
  attendees?: Array<{ name: string; email?: string }>;
  toEmail?: string;
  toName?: string;
  subject?: string;
  /** As said; compared by digits (a national number matches its international form). */
  phoneNumber?: string;
  contactName?: string;
  channel?: string;
  handle?: string;
  location?: string;
  title?: string;
}

export interface ExpectedActionItem {
  /** All must appear in the extracted item's title or description (case-insensitive, at a word start). */
  titleKeywords: string[];
  intent: ActionIntent;
  ownerRole: ExpectedOwnerRole;
  /** `YYYY-MM-DD`, or null when the call says no date. */
  dueDate: string | null;
  intentMetadata?: ExpectedIntentMetadata;
  /**
   * Groups of alternatives the item's title or description must also contain (matched like
   * `titleKeywords`): a time window said ([['8', 'eight'], ['12', 'noon', 'twelve']]), an amount
   * ([['45']]). Scored apart from intent, date and owner ("details right").
   */
  details?: string[][];
  /**
   * A promise made on a condition ("I'll call you back if anything changes"). Not counted as
   * missing when the analyser drops it; when it does extract it, the title or description must
   * say the condition (contain "if", "unless" or "in case"), else it counts as a condition lost.
   */
  conditional?: true;
}

/**
 * What a person would write as the call's headline. Each entry of a list is a group of
 * alternatives ("move|resched" style stems, matched like `titleKeywords`: case-insensitive, at a
 * word start); the text must match at least one alternative of every group.
 */
export interface ExpectedHeadline {
  /** Groups `suggestedTitle` must match: the subject, and the outcome where there is one. */
  title: string[][];
  /** Groups `oneLineSummary` must match: who, about what, and the outcome. */
  summary: string[][];
  /** Groups the first of `executiveSummaryBullets` (the outcome) must match; omitted when the call has no outcome to state. */
  outcome?: string[][];
  /** Words that must appear in none of title, one-line summary or first bullet (fragments of an address or a number said in the call, filler). */
  avoid?: string[];
}

/** Tone labels of the analysis schema (`tone.overall`). */
export type ExpectedTone = (typeof toneLabels)[number];

export interface ExpectedAnalysis {
  actionItems: ExpectedActionItem[];
  /** Expected headline; every everyday call has one. */
  headline?: ExpectedHeadline;
  /** Amounts said in the call that `numbersAndAmounts` must hold (compared by digits: '45.50' matches "£45.50"). */
  amounts?: string[];
  /** `tone.overall` labels that fit the call's register (any one of them is right); given where the register is clear. */
  tone?: ExpectedTone[];
  callType?: (typeof callTypes)[number];
  sentiment?: ExpectedSentiment;
}

export interface AnalysisCall {
  name: string;
  /** What the call is there to test, for docs/evaluation.md and the report. */
  covers: string;
  /** When the call was recorded, ISO 8601 in UTC. */
  recordedAt: string;
  /** IANA time zone in which the dates said in the call are meant. */
  timeZone: string;
  input: DiarizedTranscriptInput;
  /** The role speaker resolution must give each source speaker (`SPEAKER_00`, …). */
  speakerRoles: Record<string, 'USER' | 'CONTACT'>;
  expected: ExpectedAnalysis;
  /**
   * Written before the rule changes they measure, from a brief rather than from the analyser's
   * misses: reported apart (their misses were read while tuning since, so the figure is optimistic).
   */
  heldOut?: boolean;
  /**
   * The everyday calls (scripts/evaluation/everyday*.ts): `tune` ones are tuned on (since rounds 1
   * and 2); `heldout` ones were the held-out set of round 2, tuned on since round 4; `unseen` ones
   * the round 3 held-out set, written by someone who saw neither the analyser nor the other sets,
   * tuned on since round 5; `round4` to `round7` ones the sets written the same way in rounds 4
   * to 7, tuned on since rounds 6 to 9; `quiet` ones (no actions) tuned on since round 11;
   * `round8` to `round12` ones the sets written the same way since, never read: the judges
   * ({@link judgeSets}). Unset: the original calls above.
   */
  everyday?: EverydaySet;
}

/** Speaking rate of the scripted segments: about 150 words a minute, as on the phone. */
export const wordsPerSecond = 2.5;
/** Silence between two turns, seconds. */
const gapSeconds = 0.7;

export type Side = 'U' | 'C';
export type Line = [side: Side, text: string];
/** A line of the user (the appliance's user, whose phone recorded the call). */
export const U: Side = 'U';
/** A line of the contact. */
export const C: Side = 'C';
const round = (seconds: number) => Math.round(seconds * 100) / 100;

export interface CallScript {
  name: string;
  covers: string;
  recordedAt: string;
  timeZone: string;
  language?: string;
  userDisplayName: string;
  metadata: CallMetadata;
  lines: Line[];
  expected: ExpectedAnalysis;
  heldOut?: boolean;
  everyday?: EverydaySet;
}

/**
 * A scripted call as a supplied transcript: the side that speaks first is `SPEAKER_00`, the other
 * `SPEAKER_01`, as diarization numbers speakers; each line lasts its word count at
 * {@link wordsPerSecond} (at least a second), then {@link gapSeconds} of silence.
 */
export function scripted(script: CallScript): AnalysisCall {
  const ids = new Map<Side, string>();
  let time = 0.4;
  const segments = script.lines.map(([side, text]) => {
    if (!ids.has(side)) ids.set(side, `SPEAKER_${String(ids.size).padStart(2, '0')}`);
    const words = text.split(/\s+/).filter(Boolean).length;
    const startSeconds = round(time);
    const endSeconds = round(time + Math.max(1, words / wordsPerSecond));
    time = endSeconds + gapSeconds;
    return { sourceSpeakerId: ids.get(side)!, startSeconds, endSeconds, text };
  });
  const speakerRoles: Record<string, 'USER' | 'CONTACT'> = {};
  for (const [side, id] of ids) speakerRoles[id] = side === 'U' ? 'USER' : 'CONTACT';
  return {
    name: script.name,
    covers: script.covers,
    recordedAt: script.recordedAt,
    timeZone: script.timeZone,
    input: {
      user: { displayName: script.userDisplayName },
      metadata: { ...script.metadata, recordedAt: script.recordedAt },
      language: script.language ?? 'en',
      durationSeconds: Math.ceil(time),
      segments,
    },
    speakerRoles,
    expected: script.expected,
    ...(script.heldOut ? { heldOut: true } : {}),
    ...(script.everyday ? { everyday: script.everyday } : {}),
  };
}

export const analysisCalls: AnalysisCall[] = [
  // Wednesday 4 March 2026, 10:00 in London. "Next Tuesday" = Tue 10 March; "by Friday" = Fri 6 March.
  scripted({
    name: 'meeting: Zoom, "next Tuesday at 3"',
    covers: 'meeting scheduling with a relative date and a bare hour, Zoom, duration, a second owner',
    recordedAt: '2026-03-04T10:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Diane Carter',
    metadata: { contactName: 'Sheila Brooks', organization: 'Linden Architecture', phoneNumber: '+44 20 7946 0321', direction: 'OUTGOING' },
    lines: [
      [C, 'Good morning, Linden Architecture, Sheila speaking.'],
      [U, "Hi Sheila, it's Diane from Northwind Interiors. Have you got a couple of minutes?"],
      [C, 'Of course, Diane. Is this about the office refit for the second floor?'],
      [U, "It is. We've finished the first draft of the layout, and I'd much rather walk you through it together than send a forty page PDF with no context."],
      [C, 'That suits me. I have a few questions about where the meeting rooms ended up, and Tom will want to see the lighting plan.'],
      [U, 'Perfect. How does next Tuesday at 3 look for you and Tom?'],
      [C, 'Let me look. Tuesday at 3 works for me. Tom is working from the Leeds office that week, so could we do it on Zoom rather than here?'],
      [U, "Zoom is fine. I'll set up a Zoom meeting for next Tuesday at 3 and send the invite to you and Tom. Shall we say an hour?"],
      [C, 'An hour should be plenty.'],
      [U, 'Great. Is there anything you need from us before then?'],
      [C, "Not from you, but on our side the measurements for the east wing are out of date. I'll get the site measurements updated by Friday, so you're working from the right numbers."],
      [U, 'That would really help, thank you. The draft still assumes the old wall positions.'],
      [C, 'Understood. Anything else?'],
      [U, "No, that's everything. Thanks, Sheila, speak on Tuesday."],
      [C, 'Thanks Diane, bye.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['zoom'], intent: 'meeting', ownerRole: 'USER', dueDate: '2026-03-10',
          intentMetadata: { providerHint: 'zoom', proposedAt: '2026-03-10T15:00', durationMinutes: 60, attendees: [{ name: 'Tom' }] },
        },
        { titleKeywords: ['measurement'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-06' },
      ],
      callType: 'scheduling',
      sentiment: 'positive',
    },
  }),

  // Monday 9 March 2026, 09:15 in London. "Thursday" = Thu 12 March; "by Wednesday" = Wed 11 March.
  scripted({
    name: 'meeting: Teams with a colleague, public body',
    covers: 'Teams meeting with a third-party attendee ("my colleague Owen Fletcher"), council planning, an email by the contact',
    recordedAt: '2026-03-09T09:15:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Mark Ellison',
    metadata: { contactName: 'Laura Chen', organization: 'Chen Developments', direction: 'INCOMING' },
    lines: [
      [U, 'Planning department, Mark Ellison speaking.'],
      [C, "Hi Mark, it's Laura Chen from Chen Developments, about the application for the Mill Lane site."],
      [U, 'Hello Laura. Yes, I have the file open. The highways consultation came back on Friday with some concerns about the access road.'],
      [C, "That's what I was afraid of. Is it the visibility at the junction again?"],
      [U, 'Partly. They also want a revised traffic survey that covers the school run, not just the weekday peak.'],
      [C, 'We can commission that. Would it help to talk it through with the highways officer directly?'],
      [U, 'I think it would. My colleague Owen Fletcher handles highways for that ward. How about a Teams call on Thursday at half past ten with the three of us?'],
      [C, 'Thursday at ten thirty is fine for me.'],
      [U, "Good. I'll send a Teams invite for Thursday at ten thirty to you and Owen. We'll keep it to thirty minutes."],
      [C, "Perfect. And I'll email you the revised site plan by Wednesday, so Owen can look at it before the call."],
      [U, "That's helpful. Please copy in the planning inbox as well as me, so it goes on the file."],
      [C, 'Of course. Is there anything else missing from the application?'],
      [U, 'Not at the moment. The ecology report and the drainage strategy are both fine.'],
      [C, 'Good to hear. Thanks Mark.'],
      [U, 'Thanks Laura, speak on Thursday.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['teams'], intent: 'meeting', ownerRole: 'USER', dueDate: '2026-03-12',
          intentMetadata: { providerHint: 'teams', proposedAt: '2026-03-12T10:30', durationMinutes: 30, attendees: [{ name: 'Owen Fletcher' }] },
        },
        { titleKeywords: ['site plan'], intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-11' },
      ],
    },
  }),

  // Wednesday 4 March 2026, 10:00 in New York. "Today" = 4 March.
  scripted({
    name: 'email: address spelled out',
    covers: 'email follow-up to an address said as "j dot morales at acme dot com"',
    recordedAt: '2026-03-04T15:00:00Z',
    timeZone: 'America/New_York',
    language: 'en-US',
    userDisplayName: 'Kevin Walsh',
    metadata: { contactName: 'Julia Morales', organization: 'Acme Corp', direction: 'OUTGOING' },
    lines: [
      [C, 'Acme procurement, this is Julia.'],
      [U, "Hi Julia, it's Kevin Walsh from Brightline. We met at the logistics expo in Chicago last month."],
      [C, 'Oh yes, Kevin, the route planning software. Good to hear from you.'],
      [U, 'Likewise. I said I would follow up once our new pricing was out, and it went live on Monday. Is now still a good time?'],
      [C, 'I have about five minutes before my next meeting.'],
      [U, "That's plenty. The short version is that the fleet tier now includes the driver app, so you wouldn't need the separate add-on we talked about."],
      [C, "That's interesting. Our contract with the current vendor runs until June, so we're starting to look around."],
      [U, 'Great timing, then. Would it help if I emailed you the new pricing sheet and the case study from Harbor Freight?'],
      [C, "Yes, please. Send both to me directly. It's j dot morales at acme dot com."],
      [U, "So that's j dot morales at acme dot com. I'll email the pricing sheet and the case study to you today."],
      [C, 'Thanks. Once I have read them, we can see whether a proper demo makes sense.'],
      [U, 'Sounds good. Thanks, Julia, enjoy the rest of your day.'],
      [C, 'You too, bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['pricing'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-04', intentMetadata: { toEmail: 'j.morales@acme.com' } },
      ],
      sentiment: 'positive',
    },
  }),

  // Thursday 5 March 2026, 11:20 in London. "Before five today" = 5 March.
  scripted({
    name: 'call: callback to a direct line',
    covers: 'callback request with a phone number read back; an order number that is no action',
    recordedAt: '2026-03-05T11:20:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Amir Haddad',
    metadata: { contactName: 'Helen Price', organization: 'Oakfield Surgery', direction: 'INCOMING' },
    lines: [
      [U, 'Castle Pharmacy Supplies, Amir speaking, how can I help?'],
      [C, 'Hi Amir, this is Helen Price, practice manager at Oakfield Surgery.'],
      [U, 'Hello Helen. What can I do for you?'],
      [C, 'We had a delivery this morning, and two of the boxes of flu vaccine were missing from the pallet.'],
      [U, "I'm sorry to hear that. Do you have the delivery note in front of you?"],
      [C, "I do. It's order 55210, delivered at about eight."],
      [U, "Thank you. I can see the order, but I can't tell from here whether the boxes were left at the depot or never picked. I need to check with the warehouse."],
      [C, "That's fine, but I'm in meetings most of the day. Could you call me back on my direct line? It's 0161 496 0732."],
      [U, 'Let me read that back: 0161 496 0732.'],
      [C, "That's right. I'm at my desk until five."],
      [U, "I'll call you back on that number before five today, once I've spoken to the warehouse."],
      [C, "Thank you. We need those vaccines for Saturday's clinic."],
      [U, "Understood. I've already marked the order as urgent."],
      [C, 'Great, speak later.'],
      [U, 'Speak later, bye.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['call'], intent: 'call', ownerRole: 'USER', dueDate: '2026-03-05',
          intentMetadata: { phoneNumber: '0161 496 0732', contactName: 'Helen' },
        },
      ],
    },
  }),

  // Friday 6 March 2026, 15:30 in London. "By Wednesday" = Wed 11 March; "Monday morning" = Mon 9 March.
  scripted({
    name: 'legal: "remind me to", client task',
    covers: 'law firm: a "remind me to…" reminder for Monday morning and a client task by Wednesday',
    recordedAt: '2026-03-06T15:30:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Olivia Grant',
    metadata: { contactName: 'Daniel Reyes', direction: 'OUTGOING' },
    lines: [
      [C, 'Daniel Reyes speaking.'],
      [U, "Hi Daniel, it's Olivia Grant from Grant and Hale, calling about your purchase of 14 Orchard Road."],
      [C, 'Hi Olivia. Is everything all right with it?'],
      [U, "Yes, things are moving. The seller's solicitors have answered our enquiries, and the replies are fine."],
      [C, "That's a relief."],
      [U, "There was one open point about the boundary fence at the back. I've already raised it with them, and they're checking the title plan."],
      [C, 'Okay. What do you need from me?'],
      [U, 'The contract pack I posted on Tuesday. It needs your signature on pages four and nine, and the mortgage deed needs a witness.'],
      [C, "It arrived yesterday. I'll sign the contract pack and send it back to you by Wednesday."],
      [U, "Perfect. The one thing still outstanding on our side is the local authority search. It was due today and it hasn't come in."],
      [C, 'Is that a problem?'],
      [U, 'Not yet, these searches often run a few days late. A note for myself: remind me to chase the local authority search on Monday morning.'],
      [C, 'Fair enough. When do you think we could exchange?'],
      [U, 'If the search is clear and your signed pack is back by Wednesday, we could aim to exchange the week after.'],
      [C, 'That works with my removals. Thanks, Olivia.'],
      [U, 'Thanks Daniel, have a good weekend.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['contract'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-11' },
        { titleKeywords: ['search'], intent: 'reminder', ownerRole: 'USER', dueDate: '2026-03-09', intentMetadata: { remindAt: '2026-03-09' } },
      ],
      sentiment: 'positive',
    },
  }),

  // Tuesday 10 March 2026, 08:45 in London. "Tomorrow morning" = Wed 11 March.
  scripted({
    name: 'task: router replaced tomorrow',
    covers: 'a plain task owned by the contact, due tomorrow',
    recordedAt: '2026-03-10T08:45:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Sam Okoro',
    metadata: { contactName: 'Greg Hill', organization: 'Hillside IT', direction: 'OUTGOING' },
    lines: [
      [C, 'Hillside IT, Greg here.'],
      [U, "Hi Greg, it's Sam from Elm Street Dental. The Wi-Fi in the back office dropped out again this morning."],
      [C, 'Morning Sam. Is it the same router as last time, the one by the X-ray room?'],
      [U, 'Yes. The lights on it are flashing orange, and nobody back there can reach the booking system.'],
      [C, "Then the router is on its way out. I replaced the power supply in January, and that clearly wasn't the problem."],
      [U, 'Can you fix it this week? We have a full list of patients, and the nurses keep walking to reception to check appointments.'],
      [C, "I have a spare router in the van. I'll come in and replace the back office router tomorrow morning, before your first patients."],
      [U, 'That would be brilliant. We open at eight thirty.'],
      [C, 'I can be there at eight. Can someone let me in?'],
      [U, 'Yes, the cleaner is in from seven thirty, she can let you in.'],
      [C, "Great. It'll take about twenty minutes, and the network will be down while I swap it."],
      [U, "That's fine at that hour. Thanks Greg."],
      [C, 'No problem, see you tomorrow.'],
    ],
    expected: {
      actionItems: [{ titleKeywords: ['router'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-11' }],
    },
  }),

  // Wednesday 18 March 2026, 13:00 in London. "Today" = 18 March; "by tomorrow afternoon" = Thu 19 March.
  scripted({
    name: 'complaint: late sofa, escalation',
    covers: 'complaint and escalation; an amount and an order number that are no actions; a conditional threat that is no action',
    recordedAt: '2026-03-18T13:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Jess Palmer',
    metadata: { contactName: 'Martin Doyle', phoneNumber: '07700 900871', direction: 'INCOMING' },
    lines: [
      [U, 'HomeStyle Furniture customer care, Jess speaking.'],
      [C, "Hi Jess, my name is Martin Doyle. I'm calling for the third time about a sofa I ordered in January, and frankly I'm fed up."],
      [U, "I'm sorry, Martin. Let me pull up your order. Do you have the order number?"],
      [C, "It's HS 40118. I was told it would arrive on the twentieth of February. Then it was the fourth of March. Now nobody can tell me anything."],
      [U, "I can see it here. The status says it's still at the supplier, and I can see two notes from previous calls."],
      [C, "Two notes, and nothing happened. I paid nine hundred and eighty pounds up front, and I've been sitting on garden chairs for a month."],
      [U, "That's not acceptable, and I completely understand why you're angry."],
      [C, 'I want a delivery date today, or I want my money back.'],
      [U, "I can't promise either right now, but I can push this up. I'll escalate your order to our logistics manager today and log it as a formal complaint."],
      [C, 'And then what? Another note on the file?'],
      [U, "No. I'll call you back by tomorrow afternoon with either a confirmed delivery date or a refund. Is 07700 900871 still the best number?"],
      [C, "Yes, that's my mobile."],
      [U, "Then you'll hear from me by tomorrow afternoon, whatever happens."],
      [C, "Fine. If I don't hear back by then, I'm going to my bank for a chargeback."],
      [U, "I understand. I'm sorry again for the wait."],
      [C, 'Bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['escalat'], intent: 'task', ownerRole: 'USER', dueDate: '2026-03-18' },
        { titleKeywords: ['call'], intent: 'call', ownerRole: 'USER', dueDate: '2026-03-19', intentMetadata: { phoneNumber: '07700 900871' } },
      ],
      callType: 'complaint',
      sentiment: 'negative',
    },
  }),

  // Thursday 5 March 2026, 17:00 in Berlin. "By Friday" = Fri 6 March; "on Monday" = Mon 9 March.
  scripted({
    name: 'sales: $12,500, 15 percent, €300',
    covers: 'sales call with amounts in two currencies and a percentage, none of them actions; a quote by the user, a decision step by the contact',
    recordedAt: '2026-03-05T16:00:00Z',
    timeZone: 'Europe/Berlin',
    userDisplayName: 'Lena Vogel',
    metadata: { contactName: 'Richard Hayes', organization: 'Hayes Logistics', direction: 'OUTGOING' },
    lines: [
      [C, 'Richard Hayes.'],
      [U, "Hi Richard, it's Lena from Clearview Analytics. Thanks for making time this late in the day."],
      [C, "No problem, Lena. I've had a look at the proposal you sent last week."],
      [U, 'Great. Any first thoughts?'],
      [C, 'The product is what we need, but the price is the sticking point. $12,500 a year is above what I budgeted.'],
      [U, 'I understand. The $12,500 covers all twenty seats and the reporting module. What I can do, if you sign before the end of the quarter, is a 15 percent discount on the first year.'],
      [C, 'Fifteen percent would get us closer. What about the onboarding fee? Our Dublin office would be billed separately.'],
      [U, 'For the Dublin entity the onboarding fee is €300, and I can waive it if both offices sign together.'],
      [C, "That's more like it. I can't approve this on my own, though. I'll take it to our CFO on Monday."],
      [U, "Of course. I'll email you a revised quote with the 15 percent discount and the waived onboarding fee by Friday, so you have it in writing for Monday."],
      [C, 'That would help. Make sure it shows the annual figure after the discount.'],
      [U, 'It will. After the discount the first year comes to $10,625.'],
      [C, "Good. If the CFO agrees, we'd want to start in April."],
      [U, 'April works on our side. Thanks, Richard.'],
      [C, 'Thanks Lena, talk next week.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['quote'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-06' },
        { titleKeywords: ['cfo'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-09' },
      ],
      callType: 'sales',
    },
  }),

  // Saturday 7 March 2026, 11:00 in London.
  scripted({
    name: 'small talk: no actions',
    covers: 'a personal catch-up with past events and plans of no one, expected no action items',
    recordedAt: '2026-03-07T11:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Tom Baker',
    metadata: { contactName: 'Chris Walker', direction: 'INCOMING' },
    lines: [
      [U, 'Hello?'],
      [C, "Hey Tom, it's Chris. Just calling to say hi, I haven't heard from you in ages."],
      [U, 'Chris! Good to hear from you. How have you been?'],
      [C, 'Not bad at all. Busy with the kids, but good. Did you watch the match on Wednesday?'],
      [U, 'I did. What a finish. I honestly thought it was going to penalties.'],
      [C, 'Same here. That header in the last minute was something else.'],
      [U, 'How was the trip to the Lake District, by the way? You were going last month, weren\'t you?'],
      [C, 'We were. It rained for four days out of five, but the kids loved it anyway. We climbed Catbells on the one dry day.'],
      [U, "That's a lovely walk. We did it years ago with my parents."],
      [C, "The view from the top is amazing. Anyway, how's the new job treating you?"],
      [U, 'Really well, thanks. The team is friendly, and the commute is half what it used to be.'],
      [C, "That makes a big difference. I'm glad it's working out."],
      [U, "Me too. Right, the sun's out, so I'm heading back into the garden."],
      [C, 'Enjoy it. Take care, Tom.'],
      [U, 'You too, Chris. Bye.'],
    ],
    expected: { actionItems: [], callType: 'personal', sentiment: 'positive' },
  }),

  // Monday 9 March 2026, 09:40 in London. "This morning" = 9 March; "tomorrow" = Tue 10 March.
  scripted({
    name: 'clinic: "ask Dr. Patel", colleague Priya Shah',
    covers: 'clinic call naming third parties: a task for the user involving Dr. Patel, a call owned by a colleague (no speaker, so no owner), an emergency number that is no action',
    recordedAt: '2026-03-09T09:40:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Nadia Rahman',
    metadata: { contactName: 'George Whitfield', phoneNumber: '07700 900123', direction: 'INCOMING' },
    lines: [
      [U, 'Good morning, Riverside Medical Practice, Nadia speaking.'],
      [C, "Good morning Nadia, it's George Whitfield. I'm calling about my blood pressure tablets."],
      [U, 'Hello Mr Whitfield. What seems to be the problem?'],
      [C, "My repeat prescription ran out on Saturday, and when I went to the pharmacy they said the doctor hadn't signed it off."],
      [U, "Let me have a look at your record. I can see the request came in on Thursday, but it's been flagged because your dose changed at your last review."],
      [C, 'Yes, Dr. Patel increased it in February.'],
      [U, "That's the reason. The doctor has to confirm the new dose before it can be reissued. I'll ask Dr. Patel to review your repeat prescription this morning."],
      [C, "Thank you. I don't want to go too long without them."],
      [U, "Of course. My colleague Priya Shah from our pharmacy team will ring you tomorrow to confirm the new dose and tell you when it's ready to collect. Is 07700 900123 still the best number for you?"],
      [C, "Yes, that's my mobile."],
      [U, 'Lovely. In the meantime, if you feel dizzy or unwell, please call 111 straight away.'],
      [C, 'I will. Thanks for sorting this out, Nadia.'],
      [U, "You're welcome, Mr Whitfield. Take care."],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['patel'], intent: 'task', ownerRole: 'USER', dueDate: '2026-03-09' },
        { titleKeywords: ['dose'], intent: 'call', ownerRole: null, dueDate: '2026-03-10', intentMetadata: { phoneNumber: '07700 900123' } },
      ],
    },
  }),

  // Tuesday 10 March 2026, 14:20 in London.
  scripted({
    name: 'ambiguous owner: "someone should look into it"',
    covers: 'internal call where nobody takes the action on: owner null, no due date',
    recordedAt: '2026-03-10T14:20:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Rebecca Stone',
    metadata: { contactName: 'Paul Fisher', organization: 'Harbour Veterinary Group', direction: 'OUTGOING' },
    lines: [
      [C, 'Paul Fisher speaking.'],
      [U, "Hi Paul, it's Rebecca. Have you got a minute about the online booking page?"],
      [C, 'Sure, Rebecca. Is it the timeouts again?'],
      [U, 'Yes. Three clients complained on Monday that the page froze when they tried to pay the deposit.'],
      [C, 'We had the same at our branch. It seems to happen on Monday mornings, when everyone books at once.'],
      [U, 'Did anyone report it to the software company?'],
      [C, 'Not that I know of. I assumed head office had.'],
      [U, 'And head office assumed the branches had. Honestly, someone should look into it before it costs us more bookings.'],
      [C, "Agreed, someone really should look into it. It's been going on for weeks."],
      [U, "It's not really my area, and I don't think it's yours either."],
      [C, 'No, it isn\'t. It keeps falling between the cracks.'],
      [U, 'Anyway, the other thing was the rota for the Easter weekend. Are you fully covered?'],
      [C, 'We are. We have two vets and three nurses on each day.'],
      [U, "Good, that's a relief. That was all from me."],
      [C, 'Okay, thanks Rebecca, speak soon.'],
    ],
    expected: {
      actionItems: [{ titleKeywords: ['booking'], intent: 'task', ownerRole: null, dueDate: null }],
      callType: 'internal',
    },
  }),

  // Friday 13 March 2026, 12:00 in London. "Straight after this call" = 13 March.
  scripted({
    name: 'message: WhatsApp the venue address',
    covers: 'WhatsApp message request with an international mobile number; an event date that is no action',
    recordedAt: '2026-03-13T12:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Chloe Martin',
    metadata: { contactName: 'Ben Adeyemi', direction: 'OUTGOING' },
    lines: [
      [C, 'Ben Adeyemi speaking.'],
      [U, "Hi Ben, it's Chloe Martin from Bright Events. I'm calling about the Henderson wedding on the twenty-eighth."],
      [C, 'Hi Chloe. Yes, I have it in the diary. Ceremony at two, right?'],
      [U, 'Two o\'clock, yes, but the venue has changed. The couple moved it from the church hall to Ashcombe House because of the guest numbers.'],
      [C, "Ashcombe House. I don't think I've shot there before. Where is it exactly?"],
      [U, "It's just outside Ashcombe village, about fifteen minutes from the old venue. The entrance is easy to miss."],
      [C, 'Could you WhatsApp me the address and the parking instructions? My number is +44 7700 900456.'],
      [U, "Let me repeat that: +44 7700 900456. I'll WhatsApp you the address and the parking details straight after this call."],
      [C, 'Perfect. Do they want the same shot list as before?'],
      [U, "Yes, nothing's changed there, apart from a group photo on the front steps instead of the church door."],
      [C, 'Good, the front steps should give better light anyway.'],
      [U, "That's what we thought. Thanks, Ben."],
      [C, 'Thanks Chloe, bye.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['address'], intent: 'message', ownerRole: 'USER', dueDate: '2026-03-13',
          intentMetadata: { providerHint: 'whatsapp', phoneNumber: '+44 7700 900456' },
        },
      ],
      sentiment: 'positive',
    },
  }),

  // Tuesday 3 March 2026, 17:30 in London. "Tonight" = 3 March; "by tomorrow" = Wed 4 March.
  scripted({
    name: 'two owners: leak, plumber and photos',
    covers: 'one action item for each party, due on different days',
    recordedAt: '2026-03-03T17:30:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Ian Murray',
    metadata: { contactName: 'Sofia Rossi', direction: 'INCOMING' },
    lines: [
      [U, 'Keystone Lettings, Ian speaking.'],
      [C, 'Hi Ian, this is Sofia Rossi from flat 3, 22 Canal Street.'],
      [U, 'Hi Sofia, what can I do for you?'],
      [C, "There's water coming through the kitchen ceiling. It started as a drip this afternoon, and now there's a brown stain the size of a dinner plate."],
      [U, 'Oh no. Is it still dripping now?'],
      [C, "Slowly. I've put a bucket under it and turned off the lights in the kitchen, just in case."],
      [U, "Good, that's exactly right. The flat above is empty at the moment, so it's probably a pipe."],
      [U, "I'll arrange for a plumber to come out by tomorrow."],
      [C, 'Thank you. Do you need anything from me?'],
      [U, 'It would help to have photos of the ceiling and the stain for the insurer.'],
      [C, "I'll email you the photos tonight."],
      [U, 'Great. Send them to the repairs address in your tenancy pack, so they get logged.'],
      [C, 'Okay. Thanks, Ian.'],
      [U, "You're welcome. Keep the bucket there, and we'll get it sorted."],
      [C, 'Will do. Bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['plumber'], intent: 'task', ownerRole: 'USER', dueDate: '2026-03-04' },
        { titleKeywords: ['photo'], intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-03' },
      ],
    },
  }),

  // Wednesday 11 March 2026, 10:05 in London. "Today" = 11 March; "by Friday" = Fri 13 March.
  scripted({
    name: 'voicemail: clinic message left',
    covers: 'one-sided message (one speaker): the user\'s own email, and a callback asked of the absent contact (owner null) with a phone number',
    recordedAt: '2026-03-11T10:05:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Hannah Lewis',
    metadata: { contactName: 'Samuel Okafor', direction: 'OUTGOING' },
    lines: [
      [U, 'Hello Mr Okafor, this is Hannah Lewis from Lakeside Family Clinic.'],
      [U, 'I\'m calling about the referral to the physiotherapy service that Dr. Marsh mentioned at your appointment last week.'],
      [U, 'The good news is that the referral has been accepted, and the service has a first appointment free on the twenty-fourth.'],
      [U, 'Before it can be confirmed, they need a short health questionnaire from you.'],
      [U, "I'll email the referral forms to the address we have on file for you today."],
      [U, 'Could you please call us back by Friday to confirm whether the twenty-fourth suits you?'],
      [U, 'If it doesn\'t, the service also has a few slots the following week, so there is no need to worry.'],
      [U, 'The questionnaire only takes about ten minutes, and there are no tests or anything to prepare.'],
      [U, 'Our direct number is 020 7946 0958, and the line is open from eight until six.'],
      [U, 'Thank you, and have a good day.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['form'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-11' },
        { titleKeywords: ['call'], intent: 'call', ownerRole: null, dueDate: '2026-03-13', intentMetadata: { phoneNumber: '020 7946 0958' } },
      ],
      callType: 'voicemail',
    },
  }),

  // Monday 16 March 2026, 10:00 in London. "By the end of the month" = Tue 31 March; "today" = 16 March.
  scripted({
    name: 'deadline: "by the end of the month", public body',
    covers: 'council licensing: a contact task due at the end of the month, an email to a spelled .co.uk address',
    recordedAt: '2026-03-16T10:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Fiona Kelly',
    metadata: { contactName: 'Raj Singh', organization: 'Landmark Lettings', direction: 'INCOMING' },
    lines: [
      [U, 'Westbridge City Council, housing licensing, Fiona Kelly speaking.'],
      [C, "Good morning Fiona, it's Raj Singh from Landmark Lettings. I'm calling about the licence renewal for 8 Station Road."],
      [U, 'Morning Raj. Let me find it. Yes, the current licence expires on the thirtieth of April.'],
      [C, "That's the one. I wanted to check what you still need from us."],
      [U, 'Most of the application is complete. The only thing missing is the current gas safety certificate. The one on file expired in January.'],
      [C, "The engineer did the new check last week, I just haven't uploaded it."],
      [U, "That's fine, but we need it by the end of the month at the latest, otherwise the renewal can't go to the April panel."],
      [C, "Understood. I'll upload the gas safety certificate to the portal by the end of the month."],
      [U, "Thank you. I'll also email you our renewal checklist today, so you can see everything in one place. What's the best address?"],
      [C, "It's r singh at landmark lettings dot co dot uk, with landmarklettings as one word."],
      [U, 'So that\'s r singh at landmarklettings dot co dot uk.'],
      [C, "That's right."],
      [U, 'Great. Once the certificate is in, the renewal goes to the April panel with the others.'],
      [C, 'Perfect. Thanks, Fiona.'],
      [U, "You're welcome, goodbye."],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['gas safety'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-31' },
        { titleKeywords: ['checklist'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-16', intentMetadata: { toEmail: 'rsingh@landmarklettings.co.uk' } },
      ],
    },
  }),

  // Thursday 12 March 2026, 14:10 in London. "Now" and "this evening" = 12 March.
  scripted({
    name: 'support: label printer after an update',
    covers: 'software support: an email by the user, a fix by the contact, a ticket number that is no action',
    recordedAt: '2026-03-12T14:10:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Liam Foster',
    metadata: { contactName: 'Karen Webb', organization: 'Brookside Surgery', direction: 'INCOMING' },
    lines: [
      [U, 'Medisoft support, Liam speaking.'],
      [C, "Hi Liam, it's Karen Webb at Brookside Surgery. Our label printer has stopped working since the update yesterday."],
      [U, 'Hi Karen, sorry about that. Which printer is it?'],
      [C, "It's the Zebra one at reception, the one that prints the sample labels."],
      [U, 'Okay. Does it show an error light, or does it just do nothing when you print?'],
      [C, 'Nothing at all. The job goes into the queue and sits there.'],
      [U, "That sounds like the driver. Yesterday's update replaced the printer drivers, and a few sites with that model have had the same problem."],
      [C, 'Is there a fix?'],
      [U, "There is. The driver has to be reinstalled from our download page. I'll email you the download link and the step by step instructions now. I've opened ticket 48213, so it's all logged."],
      [C, 'Thanks. Send it to the practice admin address we use for everything.'],
      [U, 'Of course. It only takes about ten minutes, but the PC needs a restart at the end.'],
      [C, "Then I'll reinstall the driver this evening after surgery closes, when nobody needs reception."],
      [U, "That's a good plan. The ticket stays open until you confirm it's working."],
      [C, 'Great. Thanks for your help, Liam.'],
      [U, 'No problem, Karen. Bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['link'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-12' },
        { titleKeywords: ['reinstall'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-12' },
      ],
      callType: 'support',
      sentiment: 'positive',
    },
  }),

  // Thursday 19 March 2026, 10:30 in London.
  scripted({
    name: 'numbers only: order status, no actions',
    covers: 'order number, weight, money, a tracking number, times and past dates, none of them an action; a courier delivery is no one\'s action',
    recordedAt: '2026-03-19T10:30:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Emma Hughes',
    metadata: { contactName: 'Victor Lang', organization: 'Parcelwise', direction: 'OUTGOING' },
    lines: [
      [C, 'Parcelwise customer service, Victor speaking.'],
      [U, "Hi Victor, it's Emma Hughes from Hughes and Partners. I'm checking on a delivery for our office."],
      [C, 'Hi Emma. Do you have the order number?'],
      [U, "It's 7731, placed on the second of March."],
      [C, 'Thanks. Yes, I have it. That\'s three boxes, 18 kilos in total, and the invoice total was £845.20 including VAT.'],
      [U, 'That sounds right. Where is it now?'],
      [C, 'It left our Manchester hub at 6:40 this morning. The tracking number is 1Z 999 AA1 0123 456 784.'],
      [U, 'And has the invoice been paid? Our accounts team said they sent £845.20 on the fifth.'],
      [C, 'Yes, the payment arrived on the sixth, so the account balance is zero.'],
      [U, 'Good. Is there anything we need to do?'],
      [C, "No, nothing at all. It's on the van for today's round, and the driver usually reaches your area between 12 and 2."],
      [U, "Perfect, that's all I needed. Thanks, Victor."],
      [C, "You're welcome, have a good day."],
    ],
    expected: { actionItems: [], callType: 'inquiry' },
  }),

  // Friday 20 March 2026, 08:50 in London. "Wednesday the twenty-fifth" = Wed 25 March; "the day before" = Tue 24 March.
  scripted({
    name: 'clinic: in-person appointment, SMS reminder',
    covers: 'dental appointment: an in-person meeting with a location and length, an SMS "reminder" that is a message, not a reminder',
    recordedAt: '2026-03-20T08:50:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Grace Turner',
    metadata: { contactName: 'Michael Owens', phoneNumber: '07700 900654', direction: 'INCOMING' },
    lines: [
      [U, 'Parkside Dental, Grace speaking.'],
      [C, "Hi Grace, it's Michael Owens. I have a check-up booked for Monday at nine, but something's come up at work."],
      [U, 'Hello Mr Owens, no problem at all. Would you like to move it to later in the week?'],
      [C, 'Yes please. Is there anything on Wednesday?'],
      [U, 'Let me see. On Wednesday I have ten fifteen or four o\'clock with Dr. Lim.'],
      [C, 'Ten fifteen would be better.'],
      [U, "Lovely. I'll book you in with Dr. Lim for Wednesday the twenty-fifth at ten fifteen, at our Parkside Road surgery. It's a thirty minute appointment."],
      [C, 'Great. Will I get a reminder?'],
      [U, "Yes, I'll text you a reminder the day before. We have your mobile as 07700 900654, is that still right?"],
      [C, "That's right."],
      [U, "Then you're all set, and the Monday slot is cancelled."],
      [C, 'Thanks, Grace. Bye.'],
      [U, 'Bye now.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['lim'], intent: 'meeting', ownerRole: 'USER', dueDate: '2026-03-25',
          intentMetadata: { proposedAt: '2026-03-25T10:15', durationMinutes: 30, location: 'Parkside Road' },
        },
        {
          titleKeywords: ['remind'], intent: 'message', ownerRole: 'USER', dueDate: '2026-03-24',
          intentMetadata: { providerHint: 'sms', phoneNumber: '07700 900654' },
        },
      ],
      callType: 'scheduling',
      sentiment: 'positive',
    },
  }),

  // Tuesday 24 March 2026, 10:00 in New York (EDT). "Monday" = Mon 30 March; "by Thursday" = Thu 26 March.
  scripted({
    name: 'meeting: Google Meet interview, CV by email',
    covers: 'recruitment: Google Meet with a time and length, a third party (Mr. Ortiz), an email owed by the contact',
    recordedAt: '2026-03-24T14:00:00Z',
    timeZone: 'America/New_York',
    language: 'en-US',
    userDisplayName: 'Alicia Gomez',
    metadata: { contactName: 'Jordan Lee', direction: 'OUTGOING' },
    lines: [
      [C, 'Hello, this is Jordan.'],
      [U, "Hi Jordan, it's Alicia Gomez from Summit Talent. Is now a good time?"],
      [C, 'Yes, perfect, Alicia. I was hoping to hear back about the analyst role.'],
      [U, 'Good news, then. The hiring manager, Mr. Ortiz, liked your first interview and wants to meet you for a second round.'],
      [C, "That's great to hear! What does the second round involve?"],
      [U, "It's a forty-five minute conversation with him and someone from the data team, mostly about the case study you did."],
      [C, 'Okay. When would that be?'],
      [U, 'He suggested Monday at 2 in the afternoon, over Google Meet. Does that work?'],
      [C, 'Monday at 2 is fine, I can take the afternoon off.'],
      [U, "Great. I'll send you a Google Meet invite for Monday at 2 with the details."],
      [C, 'Thank you. Should I prepare anything?'],
      [U, 'Just be ready to walk through your case study. And before I forget, could you email me your updated CV by Thursday? The one we have is from last year.'],
      [C, "Sure, I'll email you the updated CV by Thursday."],
      [U, 'Perfect. Thanks, Jordan, and good luck.'],
      [C, 'Thanks Alicia, talk soon.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['meet'], intent: 'meeting', ownerRole: 'USER', dueDate: '2026-03-30',
          intentMetadata: { providerHint: 'meet', proposedAt: '2026-03-30T14:00', durationMinutes: 45 },
        },
        { titleKeywords: ['cv'], intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-26' },
      ],
      sentiment: 'positive',
    },
  }),

  // Wednesday 25 March 2026, 11:00 in London. "Tomorrow" = Thu 26 March; "by Tuesday" = Tue 31 March.
  scripted({
    name: 'legal: consent order between solicitors',
    covers: 'law firm: a hearing date and a disputed disclosure that are no actions, an email by the user, instructions taken by the contact',
    recordedAt: '2026-03-25T11:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Thomas Reid',
    metadata: { contactName: 'Amelia Clarke', direction: 'OUTGOING' },
    lines: [
      [C, 'Amelia Clarke speaking.'],
      [U, "Hi Amelia, it's Thomas Reid at Reid Legal, about Harper against Lowe."],
      [C, 'Hello Thomas. I assume this is about the directions?'],
      [U, 'It is. The court has listed the case management hearing for the fourteenth of April.'],
      [C, 'Yes, we had the notice this morning. My client would like to agree the directions beforehand, to save costs.'],
      [U, "So would mine. I'll send you our draft consent order by email tomorrow."],
      [C, "Thank you. I'll take my client's instructions on it by Tuesday."],
      [U, 'That works. One other thing: the disclosure list you sent on Monday leaves out the bank statements for 2024.'],
      [C, "That was deliberate. We don't accept that they're relevant."],
      [U, 'Then we may have to raise it at the hearing.'],
      [C, "That's your call. We'll see what the judge makes of it."],
      [U, 'Fair enough. Thanks, Amelia.'],
      [C, 'Thanks Thomas, bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['consent order'], intent: 'email', ownerRole: 'USER', dueDate: '2026-03-26' },
        { titleKeywords: ['instruction'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-31' },
      ],
    },
  }),

  // Held-out calls: written from a brief before the rule changes they measure (see `heldOut`).

  // Tuesday 14 April 2026, 09:30 in London (BST). "Friday the twenty-fourth at eleven" = Fri 24 April; "this afternoon" = 14 April.
  scripted({
    name: 'heldout: dentist, patient moves a hygienist visit',
    covers: 'the user is the patient: an appointment moved by the practice ("put you in for"), a length said in the next sentence, an emailed confirmation, conditional advice that is no action',
    recordedAt: '2026-04-14T08:30:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Priya Nair',
    metadata: { contactName: 'Tessa Morgan', organization: 'Harbourside Dental', direction: 'OUTGOING' },
    heldOut: true,
    lines: [
      [C, 'Harbourside Dental, Tessa speaking.'],
      [U, "Hi Tessa, it's Priya Nair. I've got a hygienist appointment on Thursday at two, and I need to move it, I'm afraid."],
      [C, 'No problem, Priya. Let me just find you. Yes, Thursday the sixteenth at two with Megan.'],
      [U, "That's the one. My son's school has a parents' evening, so the afternoon is out. Is there anything next week?"],
      [C, 'Next week I have Tuesday at half past eight or Friday at eleven.'],
      [U, 'Friday at eleven is perfect.'],
      [C, "Lovely. I'll put you in for Friday the twenty-fourth at eleven with Megan, then. It's a forty minute appointment, same as before."],
      [U, 'Great. Could you send me a confirmation? Email is easiest.'],
      [C, "Of course. I'll email the confirmation to the address we have on file this afternoon."],
      [U, 'Thanks. Do I need to bring anything?'],
      [C, "Nothing at all. If you ever need to cancel, just give us twenty-four hours' notice."],
      [U, 'Will do. Thanks, Tessa.'],
      [C, "You're welcome, Priya. See you on the twenty-fourth."],
      [U, 'Bye.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['megan'], intent: 'meeting', ownerRole: 'CONTACT', dueDate: '2026-04-24',
          intentMetadata: { proposedAt: '2026-04-24T11:00', durationMinutes: 40 },
        },
        { titleKeywords: ['confirmation'], intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-04-14' },
      ],
      callType: 'scheduling',
      sentiment: 'positive',
    },
  }),

  // Thursday 2 April 2026, 14:00 in London (BST). "By Wednesday" = Wed 8 April; "on Monday" = Mon 6 April.
  scripted({
    name: 'heldout: solicitor asks a client for probate documents',
    covers: 'law firm: a posted original by a deadline, a bank to ring, a scan to email to a spelled .co.uk address, a promise by the user without a date',
    recordedAt: '2026-04-02T13:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Daniel Okoye',
    metadata: { contactName: 'Rachel Kim', organization: 'Whitmore and Blake', direction: 'OUTGOING' },
    heldOut: true,
    lines: [
      [C, 'Rachel Kim speaking.'],
      [U, "Hi Rachel, it's Daniel Okoye from Whitmore and Blake, about the probate application for your father's estate."],
      [C, 'Hi Daniel. Is there a problem?'],
      [U, "Not a problem, but the probate registry has asked for two more documents before they'll issue the grant: the original death certificate and the last statement from his Nationwide savings account."],
      [C, "The death certificate is in my desk drawer. The statement I'd have to ask for, I think the last one came in January."],
      [U, "That's fine. Could you post the original death certificate to our office by Wednesday? We'll return it once the grant is issued."],
      [C, "Yes, that's no problem."],
      [U, 'And for the savings account, could you ask Nationwide for a closing statement and email me a scan of it? A scan is fine for that one.'],
      [C, "Sure. What's your email address?"],
      [U, "It's d dot okoye at wblaw dot co dot uk."],
      [C, "d dot okoye at wblaw dot co dot uk, got it. I'll ring Nationwide on Monday and send you the scan as soon as I have it."],
      [U, "Perfect. I'll send both documents to the registry as soon as they arrive."],
      [C, 'Thank you, Daniel.'],
      [U, 'Thanks Rachel, bye for now.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['death certificate'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-04-08' },
        { titleKeywords: ['nationwide'], intent: 'call', ownerRole: 'CONTACT', dueDate: '2026-04-06' },
        { titleKeywords: ['scan'], intent: 'email', ownerRole: 'CONTACT', dueDate: null, intentMetadata: { toEmail: 'd.okoye@wblaw.co.uk' } },
        { titleKeywords: ['registry'], intent: 'task', ownerRole: 'USER', dueDate: null },
      ],
    },
  }),

  // Monday 13 April 2026, 10:20 in London (BST). "This morning" and "this afternoon" = 13 April.
  scripted({
    name: 'heldout: IT support, engineer to ring back',
    covers: 'IT helpdesk: a callback by a third party (no owner) to a mobile said in words, general advice that is no action, an incident summary by email',
    recordedAt: '2026-04-13T09:20:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Marcus Bell',
    metadata: { contactName: 'Joanne Pike', organization: 'Pike Accountancy', direction: 'INCOMING' },
    heldOut: true,
    lines: [
      [U, 'Northgate IT helpdesk, Marcus speaking.'],
      [C, "Hi Marcus, it's Joanne Pike from Pike Accountancy. None of us can get into the shared drive this morning."],
      [U, 'Morning Joanne. Is it everyone in the office, or just some machines?'],
      [C, 'Everyone. It says access denied, and the VPN icon has a red cross on it.'],
      [U, "That sounds like the VPN certificate. Several clients had theirs expire over the weekend. I've raised it as a priority ticket, number 60731."],
      [C, "How long will it take? We've got a payroll run due today."],
      [U, "It's usually about an hour once someone's on it. An engineer will ring you back this morning to remote in and renew it. What's the best number to reach you on?"],
      [C, 'My mobile is oh seven seven hundred, nine hundred, three one five.'],
      [U, "So that's 07700 900315."],
      [C, "That's right."],
      [U, "In the meantime, you could try working offline in the accounts software, so payroll isn't held up."],
      [C, 'Good idea. Could you also write something up that I can forward to the partners, explaining what happened?'],
      [U, "Of course. I'll email you a short incident summary this afternoon."],
      [C, 'Thanks Marcus.'],
      [U, 'No problem, Joanne. Speak soon.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['engineer'], intent: 'call', ownerRole: null, dueDate: '2026-04-13', intentMetadata: { phoneNumber: '07700 900315' } },
        { titleKeywords: ['summary'], intent: 'email', ownerRole: 'USER', dueDate: '2026-04-13' },
      ],
      callType: 'support',
    },
  }),

  // Wednesday 15 April 2026, 11:00 in London (BST). "By Friday" = Fri 17 April; "on Tuesday" = Tue 21 April; "by the end of the month" = Thu 30 April.
  scripted({
    name: 'heldout: supplier price negotiation',
    covers: 'coffee supplier: prices per kilo, a quantity and a percentage that are no actions, a revised quote by the contact, two steps by the user before the end of the month',
    recordedAt: '2026-04-15T10:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Hannah Brooks',
    metadata: { contactName: 'Tom Hargreaves', organization: 'Hargreaves Coffee', direction: 'OUTGOING' },
    heldOut: true,
    lines: [
      [C, 'Hargreaves Coffee, Tom speaking.'],
      [U, "Hi Tom, it's Hannah Brooks from Greenleaf Cafés. Have you got ten minutes to talk about the new price list?"],
      [C, 'Of course, Hannah. I thought you might call.'],
      [U, "The house blend has gone from £14.50 to £16.80 a kilo. That's a big jump for us, we buy about 120 kilos a month."],
      [C, "I know. Green coffee is up nearly 30 percent since last summer, and we held off as long as we could."],
      [U, "I understand, but at that price we'd have to look at other roasters. Could you do £15.50 if we commit to twelve months?"],
      [C, '£15.50 is too low for me. I could do £16 a kilo on a twelve month contract, with free delivery.'],
      [U, '£16 with free delivery is closer. Can you put that in writing?'],
      [C, "Yes. I'll send you a revised quote by Friday, with the twelve month terms."],
      [U, "Thanks. Our current contract runs out on the thirtieth, so I'll take it to our finance director on Tuesday."],
      [C, "That's fine, the quote will be valid for thirty days."],
      [U, "Good. Either way, I'll confirm the order with you by the end of the month."],
      [C, 'Great. Thanks, Hannah. Speak soon.'],
      [U, 'Thanks Tom, bye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['quote'], intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-04-17' },
        { titleKeywords: ['finance director'], intent: 'task', ownerRole: 'USER', dueDate: '2026-04-21' },
        { titleKeywords: ['confirm', 'order'], intent: 'task', ownerRole: 'USER', dueDate: '2026-04-30' },
      ],
      callType: 'negotiation',
    },
  }),

  // Friday 17 April 2026, 15:40 in London (BST). "Today" = 17 April; "on Monday" = Mon 20 April.
  scripted({
    name: 'heldout: council complaint, fly-tipping escalated',
    covers: 'public body: a repeat complaint escalated today, a formal complaint logged, a call on Monday to a mobile; a threat and advice that are no actions',
    recordedAt: '2026-04-17T14:40:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Imran Shah',
    metadata: { contactName: 'Brenda Collins', phoneNumber: '07700 900782', direction: 'INCOMING' },
    heldOut: true,
    lines: [
      [U, 'Eastfield Borough Council, customer services, Imran speaking.'],
      [C, "Hello Imran, my name is Brenda Collins. I'm ringing for the fourth time about the fly-tipping in the alley behind Rose Terrace, and I'm losing patience."],
      [U, "I'm sorry to hear that, Mrs Collins. Let me look up the reports. I can see three since the second of March, all marked as passed to the waste team."],
      [C, 'Passed to the waste team, and nothing happens. There are mattresses, a fridge and bags of rubbish, and now there are rats.'],
      [U, "That's not acceptable, and I'm sorry. Because it's a repeat report and there's a health risk, I'm going to escalate it to the environmental health team today."],
      [C, "And who's going to actually clear it?"],
      [U, "I'll also log a formal complaint on your behalf, so a manager reviews why the first three reports weren't acted on."],
      [C, 'Fine. But I want to know when it will be cleared.'],
      [U, 'I\'ll call you on Monday with a collection date from the waste team. Is 07700 900782 the best number?'],
      [C, "Yes, that's my mobile. If it's not cleared by the end of next week, I'm going to my councillor."],
      [U, "I understand. In the meantime, please don't try to move anything yourself, especially the fridge."],
      [C, "I won't. Thank you, Imran."],
      [U, 'Thank you for your patience, Mrs Collins. Goodbye.'],
    ],
    expected: {
      actionItems: [
        { titleKeywords: ['escalat'], intent: 'task', ownerRole: 'USER', dueDate: '2026-04-17' },
        { titleKeywords: ['formal complaint'], intent: 'task', ownerRole: 'USER', dueDate: null },
        { titleKeywords: ['call'], intent: 'call', ownerRole: 'USER', dueDate: '2026-04-20', intentMetadata: { phoneNumber: '07700 900782' } },
      ],
      callType: 'complaint',
      sentiment: 'negative',
    },
  }),

  // Sunday 10 May 2026, 18:00 in London (BST). "The 15th at noon" = Fri 15 May, 12:00; "tomorrow" = Mon 11 May.
  scripted({
    name: 'heldout: siblings plan a birthday lunch',
    covers: 'personal call: a meeting agreed by both (no owner) on an ordinal-only date "the 15th at noon" at a café, a table booked by the user, a text by the contact',
    recordedAt: '2026-05-10T17:00:00Z',
    timeZone: 'Europe/London',
    userDisplayName: 'Ellie Ward',
    metadata: { contactName: 'Jack Ward', direction: 'OUTGOING' },
    heldOut: true,
    lines: [
      [C, 'Hello?'],
      [U, "Hi Jack, it's Ellie. Have you got a sec?"],
      [C, "Hey Ellie! Always. What's up?"],
      [U, "It's Mum's seventieth next month, and I thought we could plan something together instead of just sending flowers."],
      [C, "Good idea. She'd hate a big party, though."],
      [U, 'Agreed. What about lunch at that Italian place she likes, Rosa\'s, with the whole family?'],
      [C, "She'd love that. We should meet up first and sort out the details."],
      [U, "Are you free on the 15th? I'm in town that day anyway."],
      [C, 'The 15th works. How about noon at the Corner Café on Market Street?'],
      [U, "Perfect, the 15th at noon at the Corner Café. I'll book a table at Rosa's for the family tomorrow."],
      [C, "Great. And I'll text Aunt Carol to ask if she can come down for it."],
      [U, 'Lovely. See you on the 15th, then.'],
      [C, 'See you then. Bye, Ellie.'],
    ],
    expected: {
      actionItems: [
        {
          titleKeywords: ['meet'], intent: 'meeting', ownerRole: null, dueDate: '2026-05-15',
          intentMetadata: { proposedAt: '2026-05-15T12:00', location: 'Corner Café' },
        },
        { titleKeywords: ['table'], intent: 'task', ownerRole: 'USER', dueDate: '2026-05-11' },
        { titleKeywords: ['carol'], intent: 'message', ownerRole: 'CONTACT', dueDate: null, intentMetadata: { providerHint: 'sms' } },
      ],
      callType: 'personal',
      sentiment: 'positive',
    },
  }),
];
