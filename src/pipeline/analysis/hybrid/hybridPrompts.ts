import { actionIntents, type AnalysisActionItem } from '../../../domain/analysis/analysisSchema.js';
import type { Segment } from '../../../domain/transcripts/transcriptSchema.js';
import type { JsonSchema } from '../llm/generationSchema.js';

/*
 * The hybrid analyser's two questions to the model, each short enough for a small model to
 * answer in a few dozen tokens: is this rule-proposed action item a real one, and with which
 * intent; and what are the call's title and one-line summary. The prompts are plain English
 * (no transcript ids or schema talk): a base model reads them as a document to continue.
 */

/** The standing instructions of the item question. */
export const itemCheckSystemPrompt = [
  'You check one action item that a rule-based extractor proposed from a phone call.',
  'A real action item is something a person on the call will do after the call: something they agreed, promised, or were asked to do and accepted.',
  'It is not an action item when it was refused or called off, was already done during the call, is only a question, a wish or a possibility, or is small talk.',
  'The intent says what kind of action it is: meeting (an appointment or meeting is arranged), email (an email will be sent), call (someone will phone),',
  'message (a text or chat message will be sent), reminder (someone is to be reminded at a time), task (anything else to do), none.',
  'Keep the proposed intent unless the lines clearly say it is another.',
  'Answer with JSON: isAction (true or false) and intent.',
].join('\n');

/** The item question's answer. */
export interface ItemCheck {
  isAction: boolean;
  intent: AnalysisActionItem['intent'];
}

export const itemCheckSchema: JsonSchema = {
  type: 'object',
  properties: { isAction: { type: 'boolean' }, intent: { enum: [...actionIntents] } },
  required: ['isAction', 'intent'],
  additionalProperties: false,
};

/** Tokens an item answer needs: `{"isAction": false, "intent": "reminder"}` is about 15. */
export const itemCheckOutputTokens = 32;

/**
 * One item's question: the lines it was drawn from with the line before and after (who said
 * what, by name), and the item as the rules stated it.
 */
export function itemCheckPrompt(item: AnalysisActionItem, excerpt: readonly Segment[], ownerName: string | null): string {
  const facts = [`intent ${item.intent}`, ownerName ? `owner ${ownerName}` : 'no owner', item.dueDate ? `due ${item.dueDate}` : 'no due date'].join(', ');
  return [
    'From the call:',
    ...excerpt.map(plainLine),
    `Proposed action item: "${item.title}" (${facts}).`,
    'Is it a real action item, and what is its intent?',
  ].join('\n');
}

/** The standing instructions of the headline question. */
export const headlineSystemPrompt = [
  'You write the headline of the notes on a phone call.',
  'The title is what a person writes at the top of their notes: a few words saying what the call was about and what it came to, for example "Repeat blood test booked for Tuesday 24".',
  'The summary is one sentence: who spoke with whom, about what, and the outcome.',
  'You are given a draft; write them better, or keep what is good. Use the names from the call. Answer with JSON: title and summary.',
].join('\n');

/** Tokens a headline answer needs: 10 + 28 words and the JSON around them. */
export const headlineOutputTokens = 160;

/**
 * The headline question: the call's participants and either its lines (who said what, by name)
 * or, for a call too long for the context, the rules' digest of it (`digest`: its key points
 * and action items, one per line).
 */
export function headlinePrompt(
  participants: readonly string[],
  content: { lines: readonly Segment[] } | { digest: readonly string[] },
  draft: { title: string | null; summary: string | null },
): string {
  const body = 'lines' in content ? ['The call:', ...content.lines.map(plainLine)] : ['The call, in short:', ...content.digest.map((line) => `- ${line}`)];
  return [
    `On the call: ${participants.join(', ')}.`,
    ...body,
    `Draft title: ${draft.title ?? '(none)'}`,
    `Draft summary: ${draft.summary ?? '(none)'}`,
    'Write the title and the one-line summary.',
  ].join('\n');
}

/** A transcript line as a person reads it: `Sandra Pearce: Yes, speaking.` */
export function plainLine(segment: Segment): string {
  return `${segment.speakerDisplayName || segment.speakerLabel}: ${segment.text}`;
}
