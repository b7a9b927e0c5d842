import type { Analysis, AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import { isGroundedText } from '../../grounding/groundAnalysis.js';
import type { GroundingCorpus } from '../../grounding/groundingCorpus.js';
import { anyOfWords } from '../../text/regexWords.js';
import { withoutAddresses } from './words.js';

/** What a call came to, said in one clause: the headline's second half and the first summary bullet. */
export interface CallOutcome {
  /** "appointment moved to Tuesday 1 December at 2:30 pm", "Conor Walsh will send the corrected bill by Thursday 7 January". */
  statement: string;
  /** Whether the statement names the thing the call was about (a meeting noun or an action's object), so a title needs nothing before it. */
  namesSubject: boolean;
  /** Where it was said. */
  sourceSegmentIds: string[];
}

export interface OutcomeWords {
  /** Nouns that name an appointment of its own, in order of preference ("meeting", "appointment", "visit"). */
  appointmentNouns: readonly string[];
  /** Verbs that say an existing booking was moved ("move", "reschedule"). */
  movedVerbs: readonly string[];
  /** Appointment nouns that name no subject ("appointment", "visit"): the title says what the call was about before them. */
  genericAppointmentNouns: readonly string[];
}

type ImportantDate = NonNullable<Analysis['importantDates']>[number];

/** A sentence that makes its promise hang on a condition. */
const conditional = /\b(?:if|unless|in case|should (?:it|that|anything))\b/i;


/**
 * The outcome of a call from its action items, read as the conversation's result: the agreed
 * appointment when there is one (the last one booked: an earlier proposal was replaced), else
 * the first dated promise of a speaker, else the first promise of a speaker; promises made on a
 * condition do not count. Null when the call
 * made none (an enquiry, a wrong number, a refusal): then the headline says the call's outcome
 * label instead.
 *
 * Every word comes from the transcript: the meeting noun as said, the item's title (itself
 * grounded), and its date written out only as far as the call said it (see {@link spokenWhen}).
 * The owner of a promise is named as prose names them: `speakerNames`, by speaker id (see
 * `proseNameOf`), so an unnamed party is "the caller", never "Speaker 2".
 */
export function findCallOutcome(
  items: readonly AnalysisActionItem[], importantDates: readonly ImportantDate[], words: OutcomeWords, corpus: GroundingCorpus,
  speakerNames: ReadonlyMap<string, string>,
): CallOutcome | null {
  // A promise on a condition ("if it's missed again, I'll raise it") is not what the call came to.
  const firm = items.filter((item) => !conditional.test(item.description ?? ''));
  const owned = firm.filter((item) => item.ownerDisplayName !== null);
  const meeting = [...firm].reverse().find((item) => item.intent === 'meeting' && item.dueDate !== null);
  const primary = meeting ?? owned.find((item) => item.dueDate !== null) ?? owned[0];
  if (!primary) return null;
  const when = primary.dueDate === null ? null : spokenWhen(primary, importantDates, corpus);
  let statement: string;
  let namesSubject = true;
  if (primary === meeting) {
    const noun = words.appointmentNouns.find((candidate) => corpus.words.has(candidate));
    const moved = new RegExp(`\\b(?:${anyOfWords(words.movedVerbs)})`, 'i').test(corpus.text);
    if (noun) statement = when ? `${noun} ${moved ? 'moved to' : 'booked for'} ${when}` : `${noun} ${moved ? 'moved' : 'booked'}`;
    else statement = `${lowerFirst(primary.title.replace(/[.!?]+$/, ''))}${when ? `, ${when}` : ''}`;
    // "Visit booked for Thursday at 5:30 pm" says there is a visit, not what for.
    namesSubject = noun === undefined || !words.genericAppointmentNouns.includes(noun);
  } else {
    // An address said aloud in the title ("to claims at harbourmutual dot co dot uk") is a detail
    // of the item, not of the headline.
    const action = lowerFirst(withoutAddresses(primary.title).replace(/\s+(?:myself|ourselves)\b/gi, '').replace(/\s+(?:to|at|on)\s*$/i, '')
      .replace(/\s{2,}/g, ' ').trim().replace(/[.!?]+$/, ''));
    // "by Friday" for a deadline; "on Friday" for what happens that day (a delivery between eight and noon).
    const deadline = /\b(?:by|before|no later than|until|till)\b/i.test(primary.description ?? '');
    const owner = speakerNames.get(primary.ownerSpeakerId ?? '') ?? primary.ownerDisplayName;
    statement = `${owner} will ${action}${when ? ` ${deadline ? 'by' : 'on'} ${when}` : ''}`;
    namesSubject = false;
  }
  if (!isGroundedText(statement, corpus)) return null;
  return { statement, namesSubject, sourceSegmentIds: primary.sourceSegmentIds };
}

/**
 * The item's date (and time) in words, as much of it as the call supports: "Tuesday 1 December
 * at 2:30 pm" when the weekday, the month and the numbers were all said; less when not; else the
 * date as said ("Tuesday the first at two thirty"). A word the call never said would be an
 * invention (the grounding check drops such prose), so each form is tried with it.
 */
function spokenWhen(item: AnalysisActionItem, importantDates: readonly ImportantDate[], corpus: GroundingCorpus): string | null {
  const date = item.dueDate!;
  const noon = new Date(`${date}T12:00:00Z`);
  const weekday = noon.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  const month = noon.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
  const day = noon.getUTCDate();
  const time = item.intent === 'meeting' ? clockTime(item.intentMetadata.proposedAt) : null;
  const at = time ? ` at ${time}` : '';
  // The date as said, when it says a day ("Tuesday the first at two thirty"; not "the days").
  const said = importantDates.find((mention) => mention.date === date && (time === null || mention.time !== null) && namesADay.test(mention.text))?.text ?? null;
  const nth = ordinal(day);
  const forms = [
    `${weekday} ${day} ${month}${at}`, `${day} ${month}${at}`, `${weekday} the ${nth}${at}`, `${weekday}${at}`,
    ...(said ? [said] : []), `${weekday} ${day} ${month}`, `${day} ${month}`, `${weekday} the ${nth}`, weekday,
  ];
  return forms.find((form) => isGroundedText(`Due ${form}.`, corpus)) ?? null;
}

/** A date as said that names a day: a number, a weekday, a month or an ordinal. */
const namesADay = /\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|\b\w+(?:st|nd|rd|th)\b/i;

/** 1 → "1st", 22 → "22nd", 13 → "13th". */
function ordinal(day: number): string {
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/** "2:30 pm" from an ISO date-time's local wall-clock part (`…T14:30:00+00:00`); null without one. */
function clockTime(dateTime: string | undefined): string | null {
  const match = dateTime ? /T(\d{2}):(\d{2})/.exec(dateTime) : null;
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = match[2]!;
  if (hours === 12 && minutes === '00') return 'noon';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}${minutes === '00' ? '' : `:${minutes}`} ${hours < 12 ? 'am' : 'pm'}`;
}

function lowerFirst(text: string): string {
  // "Book Declan Byrne in" → "book Declan Byrne in"; a name or "I" stays as it is.
  return /^[A-Z][a-z]/.test(text) && !/^I\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
