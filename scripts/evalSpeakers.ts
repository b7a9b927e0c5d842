/**
 * `npm run eval:speakers`: speaker name resolution (src/pipeline/speakers/resolveSpeakers.ts).
 *
 * 1. Scripted calls (scripts/evaluation/speakerCalls.ts): each is laid out as timed words
 *    (0.3 s a word, 0.5 s between lines, or from a line's own start time), aligned to the line's
 *    speaker (under the id the call supplies for it, if any), built with buildTranscript (with the provenance of channel diarization where the
 *    call says so) and resolved. Per speaker, expected role and name against what came out.
 *    - Role right: the speaker's role equals the expected role.
 *    - Name right: the speaker's name equals the expected name, where a speaker's name is its
 *      displayName, except that "Speaker N" means no name (null), and a "Contact …NNNN" phone
 *      label also means no name unless the expected name is exactly that label.
 *    - Evidence right: where a call gives it, the speaker's `confidence/labelSource` equals it.
 *    - Invented name: a speaker label or displayName that is none of "Speaker N", the call's
 *      own "Contact …NNNN" phone label, the user's display name, or the metadata contact name.
 *      Must be 0.
 * 2. ../shared/audio/pyannote-sample/sample.wav (Diane and Sheila introduce themselves):
 *    diarized with the real segmentation model, words from sample.stm (each segment's words
 *    spread evenly over its time range), aligned, built and resolved as the user Diane on an
 *    INCOMING call from Sheila. Reports whether the diarized speaker who said most of Diane's
 *    STM words is labelled Diane/USER, and likewise Sheila/CONTACT.
 *
 * Exits 1 when any name was invented.
 * Env: SEGMENTATION_MODEL (defaults to ../shared/models/pyannote-segmentation-3.0.fp16.onnx).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import type { CallMetadata } from '../src/domain/calls/callTypes.js';
import type { Speaker, Transcript } from '../src/domain/transcripts/transcriptSchema.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { alignWordsToSpeakers, type AlignedWord } from '../src/pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../src/pipeline/normalization/buildTranscript.js';
import type { TranscribedWord } from '../src/pipeline/speechTypes.js';
import { resolveSpeakers } from '../src/pipeline/speakers/resolveSpeakers.js';
import { speakerCalls, type ScriptedCall, type ScriptedSpeaker } from './evaluation/speakerCalls.js';

const secondsPerWord = 0.3;
const secondsBetweenLines = 0.5;
const callId = '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b';
const shared = (path: string) => resolve(packageRoot, '../shared', path);
const percent = (right: number, total: number) => `${total === 0 ? '—' : ((right / total) * 100).toFixed(1)} % (${right}/${total})`;
const speakerLabel = /^Speaker \d+$/;
const phoneLabel = /^Contact …\d{4}$/;

/** The "Contact …NNNN" label a phone number may give, as resolveSpeakers documents it. */
function phoneLabelOf(phoneNumber: string | undefined): string | undefined {
  const digits = (phoneNumber ?? '').replace(/\D/g, '');
  return digits.length > 4 ? `Contact …${digits.slice(-4)}` : undefined;
}

/** The names a speaker may carry without having been invented. */
function allowedNames(userDisplayName: string | undefined, metadata: Pick<CallMetadata, 'contactName' | 'phoneNumber'>): Set<string> {
  const names = [userDisplayName?.trim(), metadata.contactName?.trim(), phoneLabelOf(metadata.phoneNumber)];
  return new Set(names.filter((name): name is string => Boolean(name)));
}

/** Labels and display names that are neither "Speaker N" nor an allowed name. */
function inventedNames(speakers: readonly Speaker[], allowed: ReadonlySet<string>): string[] {
  return speakers.flatMap((speaker) => [...new Set([speaker.label, speaker.displayName])].filter((name) => !speakerLabel.test(name) && !allowed.has(name)));
}

/** A speaker's name for scoring: null for "Speaker N", and for a phone label unless that is what is expected. */
function scoredName(speaker: Speaker, expected: string | null): string | null {
  if (speakerLabel.test(speaker.displayName)) return null;
  if (phoneLabel.test(speaker.displayName) && speaker.displayName !== expected) return null;
  return speaker.displayName;
}

/** The id a call's speaker reaches speaker resolution under: its supplied name where the call gives one. */
function sourceIdOf(call: ScriptedCall, speaker: ScriptedSpeaker): string {
  return call.sourceIds?.[speaker] ?? speaker;
}

function transcriptOf(call: ScriptedCall): Transcript {
  const words: AlignedWord[] = [];
  let time = 0;
  for (const { speaker, text, startSeconds } of call.lines) {
    time = Math.max(time, startSeconds ?? time);
    for (const part of text.split(/\s+/).filter(Boolean)) {
      words.push({ text: part, speaker: sourceIdOf(call, speaker), startSeconds: time, endSeconds: time + secondsPerWord, probability: 0.9, confidence: 'HIGH' });
      time += secondsPerWord;
    }
    time += secondsBetweenLines;
  }
  return buildTranscript({
    callId, createdAt: Date.UTC(2026, 0, 1), durationSeconds: time, words,
    diarization: {
      // As diarizeRecording names a per-channel diarization: the only one the stereo channel is evidence on.
      ...(call.stereo?.diarizedByChannel ? { provider: 'callscope', model: 'stereo-channels' } : { provider: 'scripted', model: 'scripted' }),
      speakerCount: new Set(call.lines.map(({ speaker }) => speaker)).size,
    },
    transcription: { language: 'en', provider: 'scripted', model: 'scripted' },
  });
}

const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const show = (role: string, name: string | null) => `${role} ${name === null ? '—' : JSON.stringify(name)}`;

let speakersTotal = 0;
let rolesRight = 0;
let namesRight = 0;
let bothRight = 0;
let evidenceExpected = 0;
let evidenceRight = 0;
let invented = 0;
const failedCalls: string[] = [];

console.log(`Scripted calls: ${speakerCalls.length}\n`);
for (const call of speakerCalls) {
  const resolved = resolveSpeakers(transcriptOf(call), {
    userDisplayName: call.userDisplayName, metadata: call.metadata, ...(call.stereo ? { stereoUserChannel: call.stereo.userChannel } : {}),
  });
  const meta = [
    call.userDisplayName !== undefined ? `user ${JSON.stringify(call.userDisplayName)}` : 'no user name',
    call.metadata.contactName !== undefined ? `contact ${JSON.stringify(call.metadata.contactName)}` : 'no contact name',
    call.metadata.phoneNumber !== undefined ? `phone ${call.metadata.phoneNumber}` : undefined,
    call.metadata.direction ?? 'no direction',
    call.sourceIds ? 'speakers named by the input' : undefined,
    call.stereo ? `user on ${call.stereo.userChannel} channel, diarized by ${call.stereo.diarizedByChannel ? 'channel' : 'model'}` : undefined,
  ].filter(Boolean).join(', ');
  console.log(`■ ${call.name}  [${meta}]`);
  let callOk = true;
  const expectedBySource = new Map(Object.entries(call.expected).map(([speaker, expected]) => [sourceIdOf(call, speaker as ScriptedSpeaker), expected]));
  const ids = [...new Set([...resolved.speakers.map(({ sourceSpeakerId }) => sourceSpeakerId), ...expectedBySource.keys()])];
  for (const sourceId of ids) {
    const expected = expectedBySource.get(sourceId);
    const speaker = resolved.speakers.find((candidate) => candidate.sourceSpeakerId === sourceId);
    speakersTotal += 1;
    if (!expected || !speaker) {
      callOk = false;
      console.log(`   ${pad(sourceId, 11)} ${!expected ? 'not in expected' : 'missing from transcript'}  ✗`);
      continue;
    }
    const gotName = scoredName(speaker, expected.name);
    const roleOk = speaker.role === expected.role;
    const nameOk = gotName === expected.name;
    const evidence = `${speaker.confidence}/${speaker.labelSource}`;
    const evidenceOk = expected.evidence === undefined || evidence === expected.evidence;
    rolesRight += roleOk ? 1 : 0;
    namesRight += nameOk ? 1 : 0;
    bothRight += roleOk && nameOk ? 1 : 0;
    evidenceExpected += expected.evidence === undefined ? 0 : 1;
    evidenceRight += expected.evidence !== undefined && evidenceOk ? 1 : 0;
    callOk &&= roleOk && nameOk && evidenceOk;
    const verdict = roleOk && nameOk && evidenceOk ? '✓' : `✗${roleOk ? '' : ' role'}${nameOk ? '' : ' name'}${evidenceOk ? '' : ` evidence (expected ${expected.evidence})`}`;
    console.log(`   ${pad(sourceId, 11)} expected ${pad(show(expected.role, expected.name), 30)} got ${pad(show(speaker.role, speaker.displayName), 30)} ${evidence}  ${verdict}`);
  }
  const callInvented = inventedNames(resolved.speakers, allowedNames(call.userDisplayName, call.metadata));
  if (callInvented.length > 0) console.log(`   INVENTED: ${callInvented.map((name) => JSON.stringify(name)).join(', ')}`);
  if (resolved.speakerResolution.warnings.length > 0) console.log(`   warnings: ${resolved.speakerResolution.warnings.map((warning) => warning.split(':')[0]).join(', ')}`);
  invented += callInvented.length;
  if (!callOk || callInvented.length > 0) failedCalls.push(call.name);
}

console.log('\nScripted totals:');
console.log(`  speakers                ${speakersTotal} in ${speakerCalls.length} calls`);
console.log(`  right role              ${percent(rolesRight, speakersTotal)}`);
console.log(`  right name              ${percent(namesRight, speakersTotal)}   (null = "Speaker N"; a phone label counts as a name only where expected)`);
console.log(`  right role and name     ${percent(bothRight, speakersTotal)}`);
console.log(`  right evidence          ${percent(evidenceRight, evidenceExpected)}   (confidence/labelSource, where a call expects one)`);
console.log(`  invented names          ${invented}   (must be 0)`);
console.log(`  calls not fully right   ${failedCalls.length}${failedCalls.length > 0 ? `: ${failedCalls.join('; ')}` : ''}`);

// The real recording.
let sampleInvented = 0;
const work = await mkdtemp(join(tmpdir(), 'callscope-eval-speakers-'));
try {
  const run = new LocalPipelineRun();
  const segmentationModel = process.env.SEGMENTATION_MODEL || shared('models/pyannote-segmentation-3.0.fp16.onnx');
  const cleaned = await cleanAudio({ sourcePath: shared('audio/pyannote-sample/sample.wav'), outputDir: join(work, 'sample'), maxDurationSeconds: 7200 }, run.contextFor('cleanup'));
  const diarization = await diarizeAudio(cleaned, { segmentationModel }, run.contextFor('diarization'));

  // sample.stm: `file channel speaker start end text…`; each segment's words spread evenly over it.
  const stm = (await readFile(shared('audio/pyannote-sample/sample.stm'), 'utf8')).split('\n').filter((row) => row.trim() !== '' && !row.startsWith(';;'));
  const words: TranscribedWord[] = [];
  const saidBy: string[] = [];
  for (const row of stm) {
    const [, , speaker, start, end, ...text] = row.trim().split(/\s+/);
    const startSeconds = Number(start);
    const endSeconds = Number(end);
    if (!speaker || !Number.isFinite(startSeconds) || !Number.isFinite(endSeconds) || text.length === 0) continue;
    const step = (endSeconds - startSeconds) / text.length;
    text.forEach((word, index) => {
      words.push({ text: word, startSeconds: startSeconds + index * step, endSeconds: startSeconds + (index + 1) * step, probability: 0.9 });
      saidBy.push(speaker);
    });
  }
  const aligned = alignWordsToSpeakers(words, diarization.turns);
  const transcript = buildTranscript({
    callId, createdAt: Date.UTC(2026, 0, 1), durationSeconds: cleaned.durationSeconds, words: aligned,
    diarization, transcription: { language: 'en', provider: 'stm', model: 'sample.stm' },
  });
  const userDisplayName = 'Diane';
  const metadata: CallMetadata = { contactName: 'Sheila', direction: 'INCOMING' };
  const resolved = resolveSpeakers(transcript, { userDisplayName, metadata });

  console.log(`\npyannote-sample (${cleaned.durationSeconds.toFixed(1)} s): ${diarization.speakerCount} diarized speakers, ${diarization.turns.length} turns, ${words.length} STM words`);
  for (const speaker of resolved.speakers) {
    const count = (who: string) => aligned.filter((word, index) => word.speaker === speaker.sourceSpeakerId && saidBy[index] === who).length;
    console.log(`   ${pad(speaker.sourceSpeakerId, 11)} → ${pad(show(speaker.role, speaker.displayName), 22)} ${speaker.confidence}/${speaker.labelSource}   words: Diane ${count('Diane')}, Sheila ${count('Sheila')}`);
  }
  if (resolved.speakerResolution.warnings.length > 0) console.log(`   warnings: ${resolved.speakerResolution.warnings.join(' | ')}`);
  const checks: [who: string, role: 'USER' | 'CONTACT'][] = [['Diane', 'USER'], ['Sheila', 'CONTACT']];
  for (const [who, role] of checks) {
    const tally = new Map<string, number>();
    aligned.forEach((word, index) => { if (saidBy[index] === who) tally.set(word.speaker, (tally.get(word.speaker) ?? 0) + 1); });
    const [mostly] = [...tally.entries()].sort((a, b) => b[1] - a[1]);
    const speaker = mostly ? resolved.speakers.find((candidate) => candidate.sourceSpeakerId === mostly[0]) : undefined;
    const ok = speaker?.displayName === who && speaker.role === role;
    const total = [...tally.values()].reduce((sum, value) => sum + value, 0);
    console.log(`   ${who}'s words mostly by ${mostly ? `${mostly[0]} (${mostly[1]}/${total})` : 'nobody'}, labelled ${speaker ? show(speaker.role, speaker.displayName) : '—'}: ${ok ? `${who}/${role} ✓` : `expected ${who}/${role} ✗`}`);
  }
  const sampleNames = inventedNames(resolved.speakers, allowedNames(userDisplayName, metadata));
  sampleInvented = sampleNames.length;
  console.log(`   invented names: ${sampleInvented}${sampleInvented > 0 ? ` (${sampleNames.join(', ')})` : ''}`);
} finally {
  await rm(work, { recursive: true, force: true });
  await threadResources.disposeAll();
}

console.log(`\nInvented names in all: ${invented + sampleInvented} (must be 0): ${invented + sampleInvented === 0 ? 'MET' : 'NOT MET'}`);
process.exitCode = invented + sampleInvented > 0 ? 1 : 0;
