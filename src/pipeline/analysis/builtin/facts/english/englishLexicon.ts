import * as chrono from 'chrono-node';
import { englishNumberWords } from '../../../text/numberWords.js';
import { ENGLISH_ABBREVIATIONS } from '../../../text/sentences.js';
import type { FactLexicon } from '../FactLexicon.js';
import { englishActionWords } from './englishActionWords.js';
import { englishPeopleWords } from './englishPeopleWords.js';
import { englishStatementWords } from './englishStatementWords.js';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const CLOCK_HOURS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
/** Counts of minutes said before "past" or "to" ("ten past four", "twenty-five past six"). */
const CLOCK_MINUTES = `${CLOCK_HOURS}|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty`;

/** The English lexicon: chrono's casual English parser and the tables of this folder. */
export const englishLexicon: FactLexicon = {
  languages: ['en', 'und'],
  sentences: { abbreviations: ENGLISH_ABBREVIATIONS },
  dates: {
    parser: chrono.casual,
    // Full weekday names only: chrono reads "sat", "sun" and "wed" as weekdays.
    anchor: new RegExp(`\\b(?:${WEEKDAYS}|${MONTHS}|today|tomorrow|tonight|yesterday|weekend|week|month|year|day|noon|midnight)\\b|\\d`, 'i'),
    timeAnchor: /\b(?:at|by|around|from|until|till)\s+\d{1,2}(?::\d{2})?\b|\d\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|o['’]clock|\bnoon\b|\bmidnight\b/i,
    // "past" of a clock time ("ten past four", said without "at") points nowhere back.
    pastCue: new RegExp(`\\b(?:last|ago|yesterday|previous|past(?!(?<=\\b(?:half|quarter|\\d+|${CLOCK_MINUTES})(?:[\\s-]+(?:${CLOCK_MINUTES}))?(?:\\s+minutes?)?\\s+past)\\s+(?:\\d|${CLOCK_HOURS}|noon|midnight)\\b))\\b`, 'i'),
    vague: /^(?:(?:this|the|next|over the)\s+)?(?:weekend|today|tonight)$/i,
    weekend: /\bweekend\b/i,
    deadlinePrefix: /\b(?:by|before|until|till|no later than)\s+(?:the\s+)?$/i,
    selfRepair: /^(?:(?:oh|um|uh|er|erm|no)[,\s]+)*(?:sorry|I mean|I meant|no wait|wait|correction|scratch that)\b/i,
    weekdays: WEEKDAYS.split('|'),
    // "for" too: "I'll book you in for nine thirty" (a bare "for two" stays no time: only a clock time anchors one).
    timePrepositions: ['at', 'by', 'around', 'from', 'until', 'till', 'before', 'after', 'for'],
    clockOnlyPrepositions: ['to', 'do'],
    wholeHourPrepositions: ['by', 'until', 'till', 'before', 'after', 'around'],
    // Australian and New Zealand speech: "I'll text you the link this arvo".
    dayPartWords: { arvo: 'afternoon', avo: 'afternoon' },
    frequency: /\b(?:once|twice|(?:[a-z]+|\d+) times) (?:a|per|every) (?:day|week|fortnight|month|year)\b/gi,
    countFollowers: /^\s*(?:percent|per\s*cent|%|people|persons|items?|points?|times|pounds|quid|dollars|bucks|euros?|cents?|pence|minutes?|hours?|days?|weeks?|months?|years?|of|or\s+(?:more|less|so))\b/i,
    daysBeforeTime: ['today', 'tomorrow', 'tonight'],
    hourFractions: { minutes: { half: 30, quarter: 15 }, past: ['past', 'after'], to: ['to'], minuteUnits: ['minutes', 'minute'], articles: ['a'] },
    ordinalDayFollowers: new RegExp(`^(?:\\s*(?:$|[.,;:!?)])|\\s+(?:of\\s+(?:${MONTHS}|the month|this month|next month)|at|in the|then|works|suits|is|would|please|instead|and|or)\\b)`, 'i'),
    ofWhichMonth: /^\s+of\s+(?:(?<next>next)|the|this)\s+month\b/i,
    weekdayOfTheWeekSaid: /\b(?:on\s+)?the\s+$/i,
    // A participle after "get" or "be" is no past: "when I get paid", "once it's been delivered", "it'll be sent".
    pastTense: /\b(?<!\b(?:get|gets|getting|be|been|being|is|are|am)\s)(?:was|were|had|did|sent|paid|arrived|received|placed|delivered|happened|started|came in)\b/i,
    // The negated present perfect: "hasn't arrived by the tenth", "if you haven't paid by the 15th".
    stillOpenBefore: /\b(?:hasn['’]t|haven['’]t|has not|have not|has still not|have still not|still hasn['’]t|still haven['’]t)\s+(?:yet\s+)?(?:been\s+)?$/i,
    relativeAnchors: {
      'the day before': -1, 'the night before': -1, 'the evening before': -1, 'the morning before': -1, 'the week before': -7,
      'the day after': 1, 'the next day': 1, 'the following day': 1, 'the week after': 7, 'the following week': 7,
      // The day already said ("if the spacer hasn't come in by then", "if he's not up to it that day").
      'on the day': 0, 'that day': 0, 'that morning': 0, 'that afternoon': 0, 'by then': 0,
    },
    partsOfToday: /^(?:this (?:morning|afternoon|evening)|later (?:today|this (?:morning|afternoon|evening))|tonight)$/i,
    thisWeekday: /\b(?:this|today)\b/i,
    noDaySaid: /^(?:(?:in|within|during|over|through|throughout|for)\s+)?the\s+(?:day|week|month|year)$|^(?:(?:in|during|for|by)\s+)?(?:next|the following) week$/i,
    morningCue: /\b(?:morning|first thing|breakfast)\b/i,
    laterPartOfDayCue: /\b(?:afternoon|evening|tonight|night|after work|after school|lunch(?:time)?|pm|p\.m\.)/i,
    nextMorning: /\b(?:first thing )?in the morning\b/i,
    dayOffsets: {
      fromToday: { 'the day after tomorrow': 2, 'day after tomorrow': 2, 'a week today': 7, 'a week tomorrow': 8, 'same time next week': 7, 'this time next week': 7 },
      inWords: ['in', 'in about', 'in another'],
      one: ['a', 'one'],
      unitDays: { day: 1, days: 1, week: 7, weeks: 7, fortnight: 14, fortnights: 14 },
      weekdayJoiners: ['on', 'from', 'after'],
      weekdayThenUnit: ['week', 'fortnight'],
      weekdayAfterNext: ['after next'],
      // Office speech ("by EOD", "close of play") and its American and Indian English forms ("COB", "end of business").
      endOfToday: ['end of day', 'end of the day', 'end of today', 'end of business', 'close of business', 'end of play', 'close of play', 'eod', 'cob'],
      endOfWeek: {
        thisWeek: ['the end of the week', 'the end of this week', 'end of the week', 'end of this week', 'end of week', 'the end of the working week'],
        nextWeek: ['the end of next week', 'end of next week'],
        lastWorkingDay: 5,
      },
    },
    halfPastBefore: ['half'],
  },
  numbers: englishNumberWords,
  amounts: {
    currencySymbols: { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' },
    // "dollars" alone is read as US dollars, the common case in calls; a named other dollar wins (longest first).
    currencyWords: {
      'us dollars': 'USD', 'canadian dollars': 'CAD', 'australian dollars': 'AUD', 'swiss francs': 'CHF', 'pounds sterling': 'GBP',
      dollars: 'USD', dollar: 'USD', bucks: 'USD', euros: 'EUR', euro: 'EUR', pounds: 'GBP', pound: 'GBP', quid: 'GBP',
      yen: 'JPY', francs: 'CHF', rupees: 'INR', usd: 'USD', eur: 'EUR', gbp: 'GBP', cad: 'CAD', aud: 'AUD', chf: 'CHF',
    },
    multipliers: { k: 1_000, thousand: 1_000, grand: 1_000, m: 1_000_000, million: 1_000_000, bn: 1_000_000_000, billion: 1_000_000_000 },
    moneyMultipliers: ['k', 'grand'],
    percentWords: ['%', 'percent', 'per cent'],
    spokenPriceBefore: /\b(?:(?:do|did|does|doing) (?:it|that|them|the job|the lot|the work) for|for (?:just|only)|costs?|costing|cost me|comes? to|came to|coming to|pay|paying|priced at|charges?|charged|(?:price|total|balance|bill|quote|fee|cost|deposit|excess|premium|copay|payment|instalment|installment)(?:['’]s| is| was| will be| would be| comes to| of)?|(?:the|a) first|(?:the|a) last)(?:,?\s+(?:um|uh|er|erm|just|only|about|around|roughly|so|like)\b,?)*\s+$/i,
    lonePriceLeadIns: /\b(?:the|another|your(?: regular| usual)?|my|a further)\s+$/i,
    lonePriceFollowers: /^(?:\s*$|\s*[.,;:!?)…-]|\s+(?:and|but|so|or|on top|instead|for|then|now|too|plus|extra|more|each|with|by|in total|all in|all up|a (?:month|week|year|night|head|person))\b)/i,
    spokenPriceAfter: /^\s+(?:a|per) (?:month|week|year|night|head|person)\b|^\s+(?:each|apiece|all in|all up|in total|a pop)\b/i,
    durationUnits: {
      second: 'seconds', seconds: 'seconds', minute: 'minutes', minutes: 'minutes', min: 'minutes', mins: 'minutes',
      hour: 'hours', hours: 'hours', hr: 'hours', hrs: 'hours', day: 'days', days: 'days', week: 'weeks', weeks: 'weeks',
      month: 'months', months: 'months', year: 'years', years: 'years',
    },
    durationPhrases: {
      'half an hour': { value: 30, unit: 'minutes' },
      'a half hour': { value: 30, unit: 'minutes' },
      'an hour and a half': { value: 90, unit: 'minutes' },
      'a quarter of an hour': { value: 15, unit: 'minutes' },
      'quarter of an hour': { value: 15, unit: 'minutes' },
      'an hour': { value: 1, unit: 'hours' },
    },
    quantityUnits: [
      'units', 'unit', 'pieces', 'piece', 'items', 'item', 'boxes', 'box', 'cases', 'pallets', 'pallet', 'licenses',
      'licences', 'license', 'licence', 'seats', 'seat', 'users', 'copies', 'kg', 'kilos', 'kilograms', 'grams', 'tons',
      'tonnes', 'lbs', 'litres', 'liters', 'gallons', 'metres', 'meters', 'miles', 'km', 'kilometres', 'kilometers',
      'square feet', 'square metres', 'square meters', 'employees', 'people', 'staff', 'rooms', 'devices', 'laptops',
      'bottles', 'bags', 'packs', 'cartons', 'crates', 'containers', 'trucks', 'orders', 'locations', 'stores', 'sites',
    ],
    // "order" and "case" are also verbs and nouns ("order 45 units", "in case"): they need "number", "no." or "#".
    referenceCue: /(?:\b(?:order|reference|ref|invoice|ticket|case|account|booking|confirmation|tracking|policy|claim|serial|PO|quote)\s+(?:number|no\.?|num|ID|#)\s*(?:is\s+|was\s+)?#?\s*|\b(?:reference|ref|invoice|ticket|booking|confirmation|tracking|claim|PO)\s+(?:is\s+)?#?\s*|#\s*)/i,
    phoneCue: /\b(?:call|phone|number|reach|mobile|cell|text|whats ?app|ring|dial|extension|landline)\b/i,
  },
  emails: {
    dot: ['dot', 'period', 'point'],
    at: ['at'],
    underscore: ['underscore'],
    dash: ['dash', 'hyphen'],
    cue: /\b(?:e-?mail|address|mail|inbox|send|contact|reach)\b/i,
  },
  people: englishPeopleWords,
  actions: englishActionWords,
  statements: englishStatementWords,
};
