import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { transcriptFromSegments } from '../../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../../src/pipeline/speakers/resolveSpeakers.js';
import type { SpeakerTurn } from '../../../src/pipeline/speechTypes.js';
import { embedVoices } from '../../../src/pipeline/voice/embedVoices.js';
import { matchCallVoices, type ProfileVoice } from '../../../src/pipeline/voice/matchCallVoices.js';
import { pcmWav } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';
import { speakerClips, writeToyVoiceModel } from './toyVoiceModel.js';

const thresholds = { high: 0.85, medium: 0.75 };
const GAP_SECONDS = 0.5;

let dir: string;
let modelPath: string;
let profile: ProfileVoice;

/** Samples of a canonical 44-byte-header 16 kHz mono WAV. */
function pcmOf(path: string): Int16Array {
  const data = readFileSync(path).subarray(44);
  return Int16Array.from({ length: data.length >> 1 }, (_, index) => data.readInt16LE(index * 2));
}

/** A "call" of the given clips one after another with short pauses, as speakers SPEAKER_00, SPEAKER_01, … */
async function callOf(name: string, clips: string[]): Promise<{ monoPath: string; turns: SpeakerTurn[] }> {
  const gap = new Int16Array(GAP_SECONDS * 16000);
  const parts: Int16Array[] = [];
  const turns: SpeakerTurn[] = [];
  let at = 0;
  clips.forEach((clip, index) => {
    const samples = pcmOf(clip);
    turns.push({ speaker: `SPEAKER_0${index}`, startSeconds: at, endSeconds: at + samples.length / 16000 });
    parts.push(samples, gap);
    at += (samples.length + gap.length) / 16000;
  });
  const all = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) { all.set(part, offset); offset += part.length; }
  const monoPath = join(dir, `${name}.wav`);
  await writeFile(monoPath, pcmWav(all));
  return { monoPath, turns };
}

/** The diarized transcript of such a call: one segment per turn. */
function transcriptOf(turns: SpeakerTurn[]) {
  return transcriptFromSegments({
    segments: turns.map((turn) => ({ sourceSpeakerId: turn.speaker, startSeconds: turn.startSeconds, endSeconds: turn.endSeconds, text: 'Thanks for the update on the order.' })),
  }, { callId: '1e0b9d3c-2f4a-4b6c-8d7e-9f0a1b2c3d4e', createdAt: Date.now() });
}

async function match(clips: string[], options: { profile?: ProfileVoice; embeddingModel?: string } = {}) {
  const { monoPath, turns } = await callOf(`call-${clips.length}-${Math.random().toString(36).slice(2)}`, clips);
  const transcript = transcriptOf(turns);
  const outcome = await matchCallVoices(
    { monoPath, turns, transcript, profile: options.profile ?? profile },
    { embeddingModel: options.embeddingModel ?? modelPath, thresholds },
    createTestStageContext(),
  );
  return { outcome, transcript };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'callscope-voice-match-'));
  modelPath = await writeToyVoiceModel(join(dir, 'toy-voice.onnx'));
  // The profile: speaker 1's first clip, embedded as the voice-profile endpoint embeds a sample.
  const embedded = await embedVoices({ audioPath: speakerClips.speaker1a, embeddingModelPath: modelPath, voices: { sample: [{ startSeconds: 0, endSeconds: 60 }] } });
  profile = { vector: embedded.voices.sample!.vector, model: embedded.model };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('matching a call against the user\'s voice profile, with a real ONNX embedding model', () => {
  test('the speaker with the user\'s voice is MATCHED; the other voice scores low', async () => {
    const { outcome } = await match([speakerClips.speaker1b, speakerClips.speaker2a]);
    expect(outcome).toMatchObject({ status: 'MATCHED', speakerId: 'spk_0' });
    expect(outcome.scores!.spk_0).toBeGreaterThanOrEqual(thresholds.medium);
    expect(outcome.scores!.spk_1).toBeLessThan(0.5);
  });

  test('the order of the speakers does not matter', async () => {
    const { outcome } = await match([speakerClips.speaker2a, speakerClips.speaker1b]);
    expect(outcome).toMatchObject({ status: 'MATCHED', speakerId: 'spk_1' });
  });

  test('a matched speaker becomes USER by VOICE_EMBEDDING with its score and the user\'s name; the other is CONTACT by elimination', async () => {
    const { outcome, transcript } = await match([speakerClips.speaker2a, speakerClips.speaker1b]);
    const resolved = resolveSpeakers(transcript, { userDisplayName: 'Robin', metadata: { contactName: 'Alex Moreau' }, voiceMatch: outcome });
    const [first, second] = resolved.speakers;
    expect(second).toMatchObject({ role: 'USER', labelSource: 'VOICE_EMBEDDING', label: 'Robin', voiceProfileMatched: true, voiceMatchScore: outcome.score, confidence: outcome.confidence });
    expect(first).toMatchObject({ role: 'CONTACT', labelSource: 'BY_ELIMINATION', label: 'Alex Moreau', voiceProfileMatched: false, voiceMatchScore: outcome.scores!.spk_0 });
    expect(resolved.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceProfileUsed: true, voiceMatchStatus: 'MATCHED' });
  });

  test('two speakers with the user\'s voice: AMBIGUOUS, nobody labelled by voice', async () => {
    const { outcome, transcript } = await match([speakerClips.speaker1a, speakerClips.speaker1b]);
    expect(outcome.status).toBe('AMBIGUOUS');
    const resolved = resolveSpeakers(transcript, { metadata: {}, voiceMatch: outcome });
    expect(resolved.speakers.some((speaker) => speaker.labelSource === 'VOICE_EMBEDDING')).toBe(false);
    expect(resolved.speakerResolution).toMatchObject({ voiceMatchStatus: 'AMBIGUOUS', voiceProfileUsed: false, voiceEmbeddingEnabled: true });
  });

  test('no speaker with the user\'s voice: NO_MATCH, text resolution unchanged', async () => {
    const { outcome, transcript } = await match([speakerClips.speaker2a]);
    expect(outcome).toMatchObject({ status: 'NO_MATCH' });
    const resolved = resolveSpeakers(transcript, { metadata: { direction: 'OUTGOING' }, voiceMatch: outcome });
    const textOnly = resolveSpeakers(transcript, { metadata: { direction: 'OUTGOING' } });
    expect(resolved.speakers.map(({ role, labelSource }) => [role, labelSource])).toEqual(textOnly.speakers.map(({ role, labelSource }) => [role, labelSource]));
    expect(resolved.speakers[0]!.voiceProfileMatched).toBe(false);
  });

  test('speakers too short to embed are not compared: NO_MATCH with a warning in the telemetry', async () => {
    const { monoPath, turns } = await callOf('short', [speakerClips.speaker1b]);
    const shortTurns = [{ ...turns[0]!, endSeconds: 1.2 }];
    const transcript = transcriptOf(shortTurns);
    const outcome = await matchCallVoices({ monoPath, turns: shortTurns, transcript, profile }, { embeddingModel: modelPath, thresholds }, createTestStageContext());
    expect(outcome).toMatchObject({ status: 'NO_MATCH', scores: {} });
    expect(resolveSpeakers(transcript, { metadata: {}, voiceMatch: outcome }).speakerResolution.warnings).toContain(outcome.warning);
  });
});

describe('matching fails softly', () => {
  test('without an installed embedding model: FAILED with a warning', async () => {
    const { outcome, transcript } = await match([speakerClips.speaker1b], { embeddingModel: join(dir, 'missing.onnx') });
    expect(outcome).toMatchObject({ status: 'FAILED', warning: expect.stringContaining('no speaker-embedding model') });
    const resolved = resolveSpeakers(transcript, { metadata: {}, voiceMatch: outcome });
    expect(resolved.speakerResolution).toMatchObject({ voiceMatchStatus: 'FAILED', voiceEmbeddingEnabled: true, voiceProfileUsed: false });
    expect(resolved.speakers[0]).toMatchObject({ voiceMatchScore: null, voiceProfileMatched: null });
  });

  test('a profile made by another model is not compared', async () => {
    const { outcome } = await match([speakerClips.speaker1b], { profile: { ...profile, model: 'wespeaker-resnet34.onnx' } });
    expect(outcome).toMatchObject({ status: 'FAILED', warning: expect.stringContaining('another speaker-embedding model') });
  });

  test('a profile whose length does not fit the model is not compared', async () => {
    const { outcome } = await match([speakerClips.speaker1b], { profile: { ...profile, vector: new Float32Array(256).fill(0.0625) } });
    expect(outcome).toMatchObject({ status: 'FAILED', warning: expect.stringContaining('does not fit') });
  });

  test('a broken model file throws, which the pipeline turns into a soft FAILED', async () => {
    const brokenPath = join(dir, 'broken.onnx');
    await writeFile(brokenPath, 'not a model');
    await expect(match([speakerClips.speaker1b], { embeddingModel: brokenPath, profile: { ...profile, model: 'broken.onnx' } })).rejects.toThrow();
  });
});
