import type { Segment, Speaker } from '../../../domain/transcripts/transcriptSchema.js';
import type { AnalysisInput } from '../Analyser.js';
import type { GenerationLimits } from './generationSchema.js';

/**
 * The standing instructions (the system prompt): the specification's rules for the model (no
 * invented facts, `unclear` and smaller magnitudes when in doubt, citations, owners by speaker
 * id, the fixed intents, dates relative to the recording date) and the length limits the
 * grammar enforces, so the model plans for them instead of being cut off.
 */
export function analysisSystemPrompt(limits: GenerationLimits): string {
  return [
    'You analyse the transcript of a phone call and answer with one JSON object in the required format.',
    'Rules:',
    '1. Use only what the transcript says. Never invent names, dates, email addresses, phone numbers, amounts or other numbers that it does not contain.',
    '2. When in doubt, prefer "unclear", null or an empty list, and the smaller magnitude: a lower importance or severity, a sentiment score nearer 0.',
    '3. Every item cites the transcript lines it comes from in sourceSegmentIds, by their seg_ ids.',
    '4. Name people who speak by speakerId (spk_N) from the speaker list: the speaker of a key point, the owner of an action item (who will do it), who decided, committed or asked. Use null when nobody in particular.',
    '5. An action item\'s intent is one of: meeting, email, call, message, reminder, task, none. Fill only the intentMetadata fields the transcript supports; null otherwise.',
    '6. Write dates as YYYY-MM-DD, resolved against the recording date ("next Tuesday"), and times as HH:MM (24-hour); null when they cannot be resolved.',
    '7. List key discussion points in the order they came up. Summary bullets rephrase the executive summary rather than copy it.',
    '8. sentiment is how the parties feel; tone is how they speak (their register).',
    `9. Keep it short: texts at most ${limits.maxTextLength} characters (the executive summary and section content at most ${limits.maxProseLength}), at most ${limits.maxListItems} items per list and ${limits.maxCitations} cited segments per item.`,
  ].join('\n');
}

/** Which part of the call a prompt holds, 1-based. */
export interface PromptPart {
  index: number;
  count: number;
}

/**
 * The request for one chunk: when the call was recorded (as a date in the analysis time zone,
 * so relative dates can be resolved), the upload's metadata, the speakers with their roles, and
 * the chunk's transcript lines ({@link transcriptLine}).
 */
export function chunkPrompt(input: AnalysisInput, lines: readonly string[], part: PromptPart): string {
  const { date, weekday } = recordingDate(input.recordedAt, input.timeZone);
  const { metadata } = input;
  const facts = [
    metadata.title && `title ${JSON.stringify(metadata.title)}`,
    metadata.contactName && `contact ${JSON.stringify(metadata.contactName)}`,
    metadata.organization && `organization ${JSON.stringify(metadata.organization)}`,
    metadata.direction && metadata.direction !== 'UNKNOWN' && `direction ${metadata.direction.toLowerCase()}`,
  ].filter((fact): fact is string => typeof fact === 'string');
  const scope = part.count > 1 ? `part ${part.index} of ${part.count} of the call; analyse only this part` : 'the whole call';
  return [
    `Call recorded on ${weekday} ${date} (time zone ${input.timeZone}).`,
    ...(facts.length > 0 ? [`Call metadata: ${facts.join(', ')}.`] : []),
    'Speakers:',
    ...input.transcript.speakers.map(speakerLine),
    `Transcript, ${scope} (one line per segment: [segment id] speaker id, name (role): text):`,
    ...lines,
    'Answer with the JSON analysis of this transcript.',
  ].join('\n');
}

/** One segment as the model reads it: `[seg_0001] spk_1 Alice (USER): Hello…` */
export function transcriptLine(segment: Segment): string {
  return `[${segment.id}] ${segment.speakerId} ${segment.speakerDisplayName || segment.speakerLabel} (${segment.role}): ${segment.text}`;
}

const roleDescriptions: Record<Speaker['role'], string> = {
  USER: 'USER: the person who recorded the call',
  CONTACT: 'CONTACT: the other party',
  UNKNOWN: 'UNKNOWN: role not known',
};

function speakerLine(speaker: Speaker): string {
  return `- ${speaker.speakerId}: ${speaker.displayName || speaker.label} (${roleDescriptions[speaker.role]})`;
}

/** The recording's calendar date in `timeZone` (an IANA name, validated with the configuration). */
function recordingDate(recordedAt: number, timeZone: string): { date: string; weekday: string } {
  const at = new Date(recordedAt);
  // en-CA writes dates as YYYY-MM-DD.
  const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(at);
  return { date, weekday };
}
