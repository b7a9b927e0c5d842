/**
 * `npm run eval:speakers [-- --json]`: speaker resolution (src/pipeline/speakers/resolveSpeakers.ts)
 * against expectations written by someone who never read it.
 *
 * 1. Scripted calls (scripts/evaluation/speakerCalls.json, loaded by ./evaluation/speakerCalls.ts):
 *    each is laid out as timed words (0.3 s a word, 0.5 s between lines, or from a line's own
 *    start time), aligned to the line's speaker (under the id the call supplies for it, if any),
 *    built with buildTranscript (with the provenance of channel diarization where the call was
 *    diarized by channel) and resolved. Every speaker's role and label are scored against the
 *    annotator's expectation (./evaluation/speakerScoring.ts):
 *    - Role right: the speaker's role equals the expected role (USER, CONTACT or UNKNOWN).
 *    - Name right: the label equals the expected name, or the expected name is null and the label
 *      is no personal name ("Speaker N", or a "Contact …NNNN" phone label): the product's labels
 *      for an unnamed speaker are conventions, not names.
 *    - Both right.
 *    Printed per call, then over all speakers, apart for the 35 calls written beside the resolver
 *    (call-NN) and the 18 written with the expectations (new-NN), and by the annotator's
 *    certainty; then how many speakers the product left UNKNOWN (and AMBIGUOUS) against how many
 *    the annotator did, with the roles as a table. `confidence/labelSource` is printed, not
 *    scored: it is the resolver's mechanics, tested in test/pipeline/speakers/.
 *    - Invented name: a label or displayName that is none of "Speaker N", the call's own phone
 *      label, the user's display name or the metadata contact name. Must be 0.
 * 2. ../shared/audio/pyannote-sample/sample.wav (Diane and Sheila introduce themselves):
 *    diarized with the real segmentation model, words from sample.stm (each segment's words
 *    spread evenly over its time range), aligned, built and resolved as the user Diane on an
 *    INCOMING call from Sheila. Reports whether the diarized speaker who said most of Diane's
 *    STM words is labelled Diane/USER, and likewise Sheila/CONTACT.
 *
 * Exits 1 when any name was invented. With `--json`, prints the figures as one JSON object instead
 * of the report.
 * Env: SEGMENTATION_MODEL (defaults to ../shared/models/pyannote-segmentation-3.0.fp16.onnx).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import type { CallMetadata } from '../src/domain/calls/callTypes.js';
import { speakerRoles, type Speaker, type Transcript } from '../src/domain/transcripts/transcriptSchema.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { alignWordsToSpeakers, type AlignedWord } from '../src/pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../src/pipeline/normalization/buildTranscript.js';
import type { TranscribedWord } from '../src/pipeline/speechTypes.js';
import { resolveSpeakers } from '../src/pipeline/speakers/resolveSpeakers.js';
import { percent, ratio } from './evaluation/analysisScoring.js';
import {
  callSetOf, certainties, loadSpeakerCalls, type ScriptedSpeaker, type SpeakerCall, type SpeakerExpectation,
} from './evaluation/speakerCalls.js';
import { inventedNames, scoreSpeaker } from './evaluation/speakerScoring.js';

const secondsPerWord = 0.3;
const secondsBetweenLines = 0.5;
const callId = '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b';
const shared = (path: string) => resolve(packageRoot, '../shared', path);
const asJson = process.argv.slice(2).includes('--json');
const log = (text = '') => { if (!asJson) console.log(text); };
const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const show = (role: string, name: string | null) => `${role} ${name === null ? '—' : JSON.stringify(name)}`;

/** The id a call's speaker reaches speaker resolution under: its supplied name where the call gives one. */
const sourceIdOf = (call: SpeakerCall, speaker: ScriptedSpeaker): string => call.sourceIds?.[speaker] ?? speaker;

function transcriptOf(call: SpeakerCall): Transcript {
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
      ...(call.stereo?.diarizedBy === 'channel' ? { provider: 'callscope', model: 'stereo-channels' } : { provider: 'scripted', model: 'scripted' }),
      speakerCount: new Set(call.lines.map(({ speaker }) => speaker)).size,
    },
    transcription: { language: 'en', provider: 'scripted', model: 'scripted' },
  });
}

/** A call's metadata in a line, the phone number by its last four digits only. */
function metadataLine(call: SpeakerCall): string {
  return [
    call.userDisplayName !== undefined ? `user ${JSON.stringify(call.userDisplayName)}` : 'no user name',
    call.metadata.contactName !== undefined ? `contact ${JSON.stringify(call.metadata.contactName)}` : 'no contact name',
    call.metadata.phoneNumber !== undefined ? `phone …${call.metadata.phoneNumber.replace(/\D/g, '').slice(-4)}` : undefined,
    call.metadata.direction ?? 'no direction',
    call.sourceIds ? 'speakers named by the input' : undefined,
    call.stereo ? `user on ${call.stereo.userChannel} channel, diarized by ${call.stereo.diarizedBy}` : undefined,
  ].filter(Boolean).join(', ');
}

interface SpeakerResult {
  call: SpeakerCall;
  speaker: ScriptedSpeaker;
  expected: SpeakerExpectation;
  got: Speaker | undefined;
  roleRight: boolean;
  nameRight: boolean;
}

/** Speakers, and how many have the right role, name, and both. */
function figuresOf(results: readonly SpeakerResult[]) {
  const count = (predicate: (result: SpeakerResult) => boolean) => results.filter(predicate).length;
  const speakers = results.length;
  const rolesRight = count(({ roleRight }) => roleRight);
  const namesRight = count(({ nameRight }) => nameRight);
  const bothRight = count(({ roleRight, nameRight }) => roleRight && nameRight);
  return {
    speakers, rolesRight, namesRight, bothRight,
    roleAccuracy: ratio(rolesRight, speakers), nameAccuracy: ratio(namesRight, speakers), bothAccuracy: ratio(bothRight, speakers),
  };
}

const file = loadSpeakerCalls();
const results: SpeakerResult[] = [];
const failedCalls: string[] = [];
let invented = 0;

log(`Scripted calls: ${file.calls.length}. Expectations: ${file.expectationsWrittenBy}\n`);
for (const call of file.calls) {
  const resolved = resolveSpeakers(transcriptOf(call), {
    userDisplayName: call.userDisplayName, metadata: call.metadata, ...(call.stereo ? { stereoUserChannel: call.stereo.userChannel } : {}),
  });
  log(`■ ${call.id}  ${call.title}  [${metadataLine(call)}]`);
  let callOk = true;
  for (const [speaker, expected] of Object.entries(call.expected) as [ScriptedSpeaker, SpeakerExpectation][]) {
    const got = resolved.speakers.find(({ sourceSpeakerId }) => sourceSpeakerId === sourceIdOf(call, speaker));
    const score = scoreSpeaker(expected, got);
    results.push({ call, speaker, expected, got, ...score });
    callOk &&= score.roleRight && score.nameRight;
    const verdict = score.roleRight && score.nameRight ? '✓' : `✗${score.roleRight ? '' : ' role'}${score.nameRight ? '' : ' name'}`;
    const gotText = got ? `${pad(show(got.role, got.label), 30)} ${got.confidence}/${got.labelSource}` : 'missing from the transcript';
    log(`   ${pad(speaker, 11)} expected ${pad(`${show(expected.role, expected.name)} (${expected.certainty})`, 40)} got ${gotText}  ${verdict}`);
    if (!score.roleRight || !score.nameRight) log(`               annotator: ${expected.why}`);
  }
  const callInvented = inventedNames(resolved.speakers, call.userDisplayName, call.metadata);
  if (callInvented.length > 0) log(`   INVENTED: ${callInvented.map((name) => JSON.stringify(name)).join(', ')}`);
  if (resolved.speakerResolution.warnings.length > 0) log(`   warnings: ${resolved.speakerResolution.warnings.map((warning) => warning.split(':')[0]).join(', ')}`);
  invented += callInvented.length;
  if (!callOk || callInvented.length > 0) failedCalls.push(call.id);
}

const groups = [
  { key: 'all', label: 'all speakers', results },
  { key: 'original', label: 'call-01…35 (written beside the resolver)', results: results.filter(({ call }) => callSetOf(call) === 'original') },
  { key: 'new', label: 'new-01…18 (written with the expectations)', results: results.filter(({ call }) => callSetOf(call) === 'new') },
  ...certainties.map((certainty) => ({ key: certainty, label: `annotator: ${certainty}`, results: results.filter(({ expected }) => expected.certainty === certainty) })),
];
const unknown = {
  product: results.filter(({ got }) => got?.role === 'UNKNOWN').length,
  productAmbiguous: results.filter(({ got }) => got?.labelSource === 'AMBIGUOUS').length,
  annotator: results.filter(({ expected }) => expected.role === 'UNKNOWN').length,
  both: results.filter(({ got, expected }) => got?.role === 'UNKNOWN' && expected.role === 'UNKNOWN').length,
};
/** Expected role → the product's role → speakers. */
const roleTable = Object.fromEntries(speakerRoles.map((expectedRole) => [expectedRole, Object.fromEntries(speakerRoles.map((gotRole) => [
  gotRole, results.filter(({ expected, got }) => expected.role === expectedRole && got?.role === gotRole).length,
]))]));

log('\nScripted totals (role right / name right / both right):');
for (const group of groups) {
  const figures = figuresOf(group.results);
  log(`  ${pad(group.label, 42)} ${pad(String(figures.speakers), 4)} speakers   role ${pad(percent(figures.rolesRight, figures.speakers), 18)} name ${pad(percent(figures.namesRight, figures.speakers), 18)} both ${percent(figures.bothRight, figures.speakers)}`);
}
log('  (a name is right when the label is the expected name, or when none is expected and the label is "Speaker N" or "Contact …NNNN")');
log(`\n  UNKNOWN: the product ${unknown.product} speakers (${unknown.productAmbiguous} of them AMBIGUOUS), the annotator ${unknown.annotator}, both ${unknown.both}`);
log(`  roles, expected (rows) against the product's (columns):\n  ${pad('', 10)}${speakerRoles.map((role) => pad(role, 9)).join('')}`);
for (const expectedRole of speakerRoles) log(`  ${pad(expectedRole, 10)}${speakerRoles.map((gotRole) => pad(String(roleTable[expectedRole]?.[gotRole] ?? 0), 9)).join('')}`);
log(`\n  invented names          ${invented}   (must be 0)`);
log(`  calls not fully right   ${failedCalls.length} of ${file.calls.length}${failedCalls.length > 0 ? `: ${failedCalls.join(', ')}` : ''}`);

// The real recording.
let sampleInvented = 0;
const recording: { speakers: object[]; checks: { who: string; role: string; right: boolean }[] } = { speakers: [], checks: [] };
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

  log(`\npyannote-sample (${cleaned.durationSeconds.toFixed(1)} s): ${diarization.speakerCount} diarized speakers, ${diarization.turns.length} turns, ${words.length} STM words`);
  for (const speaker of resolved.speakers) {
    const count = (who: string) => aligned.filter((word, index) => word.speaker === speaker.sourceSpeakerId && saidBy[index] === who).length;
    recording.speakers.push({ sourceSpeakerId: speaker.sourceSpeakerId, role: speaker.role, label: speaker.label, words: { Diane: count('Diane'), Sheila: count('Sheila') } });
    log(`   ${pad(speaker.sourceSpeakerId, 11)} → ${pad(show(speaker.role, speaker.displayName), 22)} ${speaker.confidence}/${speaker.labelSource}   words: Diane ${count('Diane')}, Sheila ${count('Sheila')}`);
  }
  if (resolved.speakerResolution.warnings.length > 0) log(`   warnings: ${resolved.speakerResolution.warnings.join(' | ')}`);
  const checks: [who: string, role: 'USER' | 'CONTACT'][] = [['Diane', 'USER'], ['Sheila', 'CONTACT']];
  for (const [who, role] of checks) {
    const tally = new Map<string, number>();
    aligned.forEach((word, index) => { if (saidBy[index] === who) tally.set(word.speaker, (tally.get(word.speaker) ?? 0) + 1); });
    const [mostly] = [...tally.entries()].sort((a, b) => b[1] - a[1]);
    const speaker = mostly ? resolved.speakers.find((candidate) => candidate.sourceSpeakerId === mostly[0]) : undefined;
    const ok = speaker?.displayName === who && speaker.role === role;
    recording.checks.push({ who, role, right: ok });
    const total = [...tally.values()].reduce((sum, value) => sum + value, 0);
    log(`   ${who}'s words mostly by ${mostly ? `${mostly[0]} (${mostly[1]}/${total})` : 'nobody'}, labelled ${speaker ? show(speaker.role, speaker.displayName) : '—'}: ${ok ? `${who}/${role} ✓` : `expected ${who}/${role} ✗`}`);
  }
  const sampleNames = inventedNames(resolved.speakers, userDisplayName, metadata);
  sampleInvented = sampleNames.length;
  log(`   invented names: ${sampleInvented}${sampleInvented > 0 ? ` (${sampleNames.join(', ')})` : ''}`);
} finally {
  await rm(work, { recursive: true, force: true });
  await threadResources.disposeAll();
}

log(`\nInvented names in all: ${invented + sampleInvented} (must be 0): ${invented + sampleInvented === 0 ? 'MET' : 'NOT MET'}`);
if (asJson) {
  console.log(JSON.stringify({
    totals: Object.fromEntries(groups.map((group) => [group.key, figuresOf(group.results)])),
    unknown,
    roles: roleTable,
    invented: invented + sampleInvented,
    callsNotFullyRight: failedCalls,
    calls: file.calls.map((call) => ({
      id: call.id,
      speakers: results.filter((result) => result.call === call).map(({ speaker, expected, got, roleRight, nameRight }) => ({
        speaker, expected: { role: expected.role, name: expected.name, certainty: expected.certainty },
        got: got ? { role: got.role, label: got.label, confidence: got.confidence, labelSource: got.labelSource } : null, roleRight, nameRight,
      })),
    })),
    recording,
  }, null, 2));
}
process.exitCode = invented + sampleInvented > 0 ? 1 : 0;
