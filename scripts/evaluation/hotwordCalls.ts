/**
 * Synthetic calls for `npm run eval:hotwords`: a user and a contact with uncommon names, and the
 * site's own words (a company, a product, a colleague) as the admin's vocabulary, each said in
 * the call at least twice. The lines follow one script, so that the calls differ in their names
 * only and a difference in recognition is the names' doing.
 */
import type { ConversationLine } from '../audio/makeConversation.js';

export interface HotwordCall {
  name: string;
  userDisplayName: string;
  contactName: string;
  /** TRANSCRIPTION_VOCABULARY's terms: the user's company, a product and a colleague. */
  vocabulary: [company: string, product: string, colleague: string];
}

export const hotwordCalls: readonly HotwordCall[] = [
  { name: 'kwame-ingrid', userDisplayName: 'Kwame Mensah', contactName: 'Ingrid Haugland', vocabulary: ['Zentrix', 'Callscope', 'Oluwaseun Adeyemi'] },
  { name: 'priya-tobias', userDisplayName: 'Priya Raghunathan', contactName: 'Tobias Wexler', vocabulary: ['Nordvik Logistics', 'Quillion', 'Marisol Etxeberria'] },
  { name: 'declan-saoirse', userDisplayName: 'Declan Okafor', contactName: 'Saoirse Delacroix', vocabulary: ['Veridian Health', 'OmniCare', 'Jovan Petrovic'] },
  { name: 'anneliese-yusuf', userDisplayName: 'Anneliese Brandt', contactName: 'Yusuf Karimov', vocabulary: ['Halvorsen Partners', 'Lumora', 'Thandiwe Nkosi'] },
  { name: 'mateo-ngozi', userDisplayName: 'Mateo Zubiri', contactName: 'Ngozi Eze', vocabulary: ['Brightwell', 'Tessaract', 'Henrik Lindqvist'] },
];

/** The names and terms a call's transcript should spell as given: the user's, the contact's, then the vocabulary. */
export function expectedNames(call: HotwordCall): string[] {
  return [call.userDisplayName, call.contactName, ...call.vocabulary];
}

/** The call's lines: the user (A) rings the contact (B); every name and term is said at least twice. */
export function hotwordCallLines(call: HotwordCall): ConversationLine[] {
  const [company, product, colleague] = call.vocabulary;
  const userFirst = call.userDisplayName.split(' ')[0]!;
  const contactFirst = call.contactName.split(' ')[0]!;
  return [
    { speaker: 'A', text: `Hello, this is ${call.userDisplayName} from ${company}. Am I speaking with ${call.contactName}?` },
    { speaker: 'B', text: `Yes, ${call.contactName} speaking. Hello ${userFirst}, thanks for calling back.` },
    { speaker: 'A', text: `I am calling about the ${product} rollout we discussed last week.` },
    { speaker: 'B', text: `Right. Our team has been testing ${product} since Monday, and it looks good so far.` },
    { speaker: 'A', text: `Great. My colleague ${colleague} will send you the installation guide today.` },
    { speaker: 'B', text: `Thank you. Should I send my questions to ${colleague} directly?` },
    { speaker: 'A', text: `Yes, please. ${colleague} looks after every ${company} customer in your region.` },
    { speaker: 'B', text: `Perfect. We will sign the contract with ${company} on Friday.` },
    { speaker: 'A', text: `Wonderful. Thank you, ${contactFirst}. Goodbye.` },
    { speaker: 'B', text: `Goodbye, ${call.userDisplayName}.` },
  ];
}
