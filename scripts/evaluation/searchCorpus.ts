/**
 * A synthetic, deterministic corpus of completed calls for `npm run bench:search`: everyday
 * phone-call vocabulary drawn with a Zipf-like skew (function words in nearly every call, most
 * content words in some, a few rare words in a handful), titles, summary bullets and 1-3 action
 * items. Nobody's data: every word comes from the lists below.
 */
import { randomSource } from './randomSource.js';

const functionWords = ('the and to you I it a that of is we so for on this be have just yeah can do with was will not what but '
  + 'they are if know get at okay right think me there about all our like one your would well then can\'t don\'t it\'s I\'m that\'s '
  + 'let\'s we\'ll need some when out up by from how could or here now see going want maybe also sure because really good time').split(' ');

const contentStems = ('order invoice delivery meeting schedule price contract payment account address appointment warehouse shipment '
  + 'customer supplier quote estimate discount budget report project deadline team manager office client product service support '
  + 'ticket problem issue question answer email phone number message voicemail calendar monday tuesday wednesday thursday friday '
  + 'morning afternoon evening tomorrow yesterday week month year quarter renewal subscription license upgrade install repair '
  + 'replace return refund credit card bank transfer receipt tax form document signature copy file folder spreadsheet presentation '
  + 'slide draft review approve confirm cancel change update check follow remind book reserve table room hotel flight train ticket '
  + 'car parking traffic road street city town school doctor dentist pharmacy prescription insurance claim policy coverage premium '
  + 'rent lease landlord tenant kitchen bathroom roof window door heating plumber electrician paint floor carpet garden fence '
  + 'dinner lunch breakfast coffee birthday party wedding holiday vacation weekend family kids parents sister brother friend '
  + 'neighbor dog cat vet groceries pallet crate truck driver route stock inventory sample catalogue brochure website login password '
  + 'laptop printer screen battery charger cable network internet router server backup software version feature bug release '
  + 'training workshop seminar conference agenda minutes notes summary feedback survey result target sales revenue margin cost '
  + 'invoice discount offer proposal terms conditions warranty guarantee complaint apology solution option plan idea decision '
  + 'price increase decrease percent amount total balance overdue reminder notice letter package parcel courier pickup dropoff').split(' ');

const suffixes = ['', '', '', 's', 'ing', 'ed'];

/** Words in a few calls each: the "rare word" queries look for them. */
export const rareWords = ['aardvark', 'zeppelin', 'kumquat', 'marzipan', 'quokka', 'theremin', 'obelisk', 'gazebo', 'tamarind', 'sextant',
  'pangolin', 'dulcimer', 'nectarine', 'ziggurat', 'axolotl', 'bergamot', 'cormorant', 'fjord', 'gondola', 'harpsichord'];

/** Phrases scattered through the calls (phrase queries look for some). */
const phrases = ['thank you', 'next week', 'call you back', 'send the invoice', 'as soon as possible', 'have a good day', 'talk to you soon',
  'let me check', 'the delivery date', 'sign the contract'];

const firstNames = ['Maria', 'James', 'Aisha', 'Chen', 'Olga', 'Pedro', 'Fatima', 'Liam', 'Sofia', 'Kenji', 'Amara', 'Lukas', 'Priya', 'Tom',
  'Elena', 'Omar', 'Grace', 'Ivan', 'Nora', 'Sam', 'Zoe', 'Ravi', 'Hana', 'Felix', 'Leila', 'Marco', 'Ines', 'Dmitri', 'Ada', 'Yusuf'];

const verbs = ['Send', 'Call', 'Schedule', 'Confirm', 'Review', 'Update', 'Book', 'Check', 'Email', 'Prepare'];

export interface CorpusCall {
  title: string;
  contactName: string;
  oneLineSummary: string;
  bullets: string[];
  actionItems: { title: string; description: string | null }[];
  segments: { speakerDisplayName: string; text: string; startSeconds: number }[];
}

/** Builds the corpus's calls one at a time (call `next()` `count` times). */
export function corpusGenerator(seed: number, count: number) {
  const random = randomSource(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const contentWords = contentStems.flatMap((stem) => suffixes.map((suffix) => stem + suffix)).filter((word, index, all) => all.indexOf(word) === index);
  // Zipf-like: the word of rank r is drawn with weight 1/(r+1); cumulative weights for a binary search.
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < contentWords.length; rank += 1) cumulative.push(total += 1 / (rank + 1));
  const contentWord = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1; else high = middle;
    }
    return contentWords[low]!;
  };
  // Each rare word lands in about 10 of 10,000 calls.
  const rareChance = (rareWords.length * 10) / count;
  const sentence = (words: number) => {
    const parts: string[] = [];
    for (let index = 0; index < words; index += 1) parts.push(random() < 0.55 ? pick(functionWords) : contentWord());
    if (random() < 0.15) parts.splice(Math.floor(random() * parts.length), 0, pick(phrases));
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${random() < 0.2 ? '?' : '.'}`;
  };
  return {
    next(): CorpusCall {
      const contactName = pick(firstNames);
      const userName = 'Alex';
      const segmentCount = 30 + Math.floor(random() * 21);
      const segments = Array.from({ length: segmentCount }, (_, index) => ({
        speakerDisplayName: index % 2 === 0 ? userName : contactName,
        text: sentence(6 + Math.floor(random() * 20)),
        startSeconds: index * 6.5,
      }));
      if (random() < rareChance) {
        const segment = pick(segments);
        segment.text = `${segment.text} The ${pick(rareWords)} came up.`;
      }
      const topic = `${contentWord()} ${contentWord()}`;
      return {
        title: `${topic.charAt(0).toUpperCase()}${topic.slice(1)} with ${contactName}`,
        contactName,
        oneLineSummary: `${userName} and ${contactName} discussed the ${topic}.`,
        bullets: Array.from({ length: 3 + Math.floor(random() * 3) }, () => sentence(8 + Math.floor(random() * 8))),
        actionItems: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
          title: `${pick(verbs)} the ${contentWord()} ${contentWord()}`,
          description: random() < 0.5 ? sentence(8) : null,
        })),
        segments,
      };
    },
  };
}
