import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { readWavInfo } from '../../../src/pipeline/diarization/inference/readWavBlocks.js';
import {
  extraTuningPlans, interjectionPlans, libriSpeechConversationPlans, readLibriSpeechUtterances, speakerHalves,
  spliceInterjectedConversation, spliceLibriSpeechConversation,
} from '../../../scripts/audio/libriSpeechConversations.js';

const folder = resolve(packageRoot, '../shared/audio/librispeech');
const work = await mkdtemp(join(tmpdir(), 'callscope-librispeech-test-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** Regions (samples) match the expected ones (seconds) to a frame: each level is measured over 25 ms around its 10 ms frame. */

describe('LibriSpeech conversations for eval:diarization', () => {
  it('splits the speakers in two halves that share no voice, three of the six regular readers in each', () => {
    const utterances = readLibriSpeechUtterances(folder);
    const halves = speakerHalves(utterances);
    expect(halves.size).toBe(132);
    const regular = [...new Set(utterances.map((utterance) => utterance.speaker))].filter((speaker) => utterances.filter((utterance) => utterance.speaker === speaker).length > 1);
    expect(regular.filter((speaker) => halves.get(speaker) === 'tuning')).toHaveLength(3);
    expect(regular.filter((speaker) => halves.get(speaker) === 'held-out')).toHaveLength(3);
  });

  it('extraTuningPlans: more tuning-half conversations of 2 to 6 speakers, seeds none of the evaluation uses', () => {
    const extra = extraTuningPlans(4);
    expect(extra).toHaveLength(20);
    expect(extra.every((plan) => plan.half === 'tuning')).toBe(true);
    expect([2, 3, 4, 5, 6].map((speakers) => extra.filter((plan) => plan.speakers === speakers).length)).toEqual([4, 4, 4, 4, 4]);
    const seeds = [...extra, ...libriSpeechConversationPlans].map((plan) => plan.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
  });

  it('interjectionPlans: tuning-half calls with a stranger or a participant talking over a turn, seeds of their own', () => {
    const plans = interjectionPlans(3);
    expect(plans.map((plan) => plan.interjection)).toEqual(['stranger', 'stranger', 'stranger', 'participant', 'participant', 'participant']);
    expect(plans.every((plan) => plan.half === 'tuning')).toBe(true);
    const seeds = [...plans, ...extraTuningPlans(12), ...libriSpeechConversationPlans].map((plan) => plan.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
  });

  it('spliceInterjectedConversation: the interjection overlaps the longest turn; a stranger adds a speaker, a participant does not', async () => {
    const [stranger, participant] = [interjectionPlans(1)[0]!, interjectionPlans(1)[1]!];
    const withStranger = await spliceInterjectedConversation(folder, stranger, join(work, 'stranger.wav'));
    const plain = await spliceLibriSpeechConversation(folder, stranger, join(work, 'plain.wav'));
    const added = withStranger.turns.filter((turn) => turn.speaker.startsWith('x'));
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(withStranger.turns.map((turn) => turn.speaker)).size).toBe(stranger.speakers + 1);
    // Every added region lies inside some turn of the plain call: talked over, not in a gap.
    const seconds = added.reduce((sum, turn) => sum + turn.endSeconds - turn.startSeconds, 0);
    const overlapped = added.reduce((sum, turn) => sum + plain.turns.reduce((inner, other) => inner + Math.max(0, Math.min(turn.endSeconds, other.endSeconds) - Math.max(turn.startSeconds, other.startSeconds)), 0), 0);
    expect(overlapped / seconds).toBeGreaterThan(0.5);
    const withParticipant = await spliceInterjectedConversation(folder, participant, join(work, 'participant.wav'));
    expect(new Set(withParticipant.turns.map((turn) => turn.speaker)).size).toBe(participant.speakers);
    expect(withParticipant.turns.length).toBeGreaterThan((await spliceLibriSpeechConversation(folder, participant, join(work, 'plain2.wav'))).turns.length);
  });

  it('makes the same conversation from the same plan: the planned number of speakers, turns in order inside the file', async () => {
    const plan = libriSpeechConversationPlans.find((candidate) => candidate.speakers === 3 && candidate.half === 'held-out')!;
    const first = await spliceLibriSpeechConversation(folder, plan, join(work, 'a.wav'));
    const second = await spliceLibriSpeechConversation(folder, plan, join(work, 'b.wav'));
    expect(second.turns).toEqual(first.turns);
    expect(new Set(first.turns.map((turn) => turn.speaker)).size).toBe(3);
    const { totalSamples, sampleRate } = await readWavInfo(first.path);
    expect(totalSamples / sampleRate).toBeCloseTo(first.durationSeconds, 3);
    expect(first.turns.every((turn, index) => turn.endSeconds > turn.startSeconds && (index === 0 || turn.startSeconds >= first.turns[index - 1]!.endSeconds))).toBe(true);
    expect(first.turns.at(-1)!.endSeconds).toBeLessThanOrEqual(first.durationSeconds);
  });
});
