import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { readWavInfo } from '../../../src/pipeline/diarization/inference/readWavBlocks.js';
import {
  libriSpeechConversationPlans, readLibriSpeechUtterances, speakerHalves, speechRegions, spliceLibriSpeechConversation,
} from '../../../scripts/audio/libriSpeechConversations.js';

const folder = resolve(packageRoot, '../shared/audio/librispeech');
const work = await mkdtemp(join(tmpdir(), 'callscope-librispeech-test-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('LibriSpeech conversations for eval:diarization', () => {
  it('splits the speakers in two halves that share no voice, three of the six regular readers in each', () => {
    const utterances = readLibriSpeechUtterances(folder);
    const halves = speakerHalves(utterances);
    expect(halves.size).toBe(132);
    const regular = [...new Set(utterances.map((utterance) => utterance.speaker))].filter((speaker) => utterances.filter((utterance) => utterance.speaker === speaker).length > 1);
    expect(regular.filter((speaker) => halves.get(speaker) === 'tuning')).toHaveLength(3);
    expect(regular.filter((speaker) => halves.get(speaker) === 'held-out')).toHaveLength(3);
  });

  it('speechRegions: bridges pauses under 0.3 s, splits at longer ones, ignores the floor', () => {
    const samples = new Float32Array(4 * 16_000).map((_, index) => 0.001 * Math.sin(index));
    const tone = (from: number, to: number) => { for (let index = from * 16_000; index < to * 16_000; index++) samples[index] = 0.3 * Math.sin(index / 5); };
    tone(0.5, 1.5);
    tone(1.7, 2);
    tone(2.6, 3.5);
    expect(speechRegions(samples).map(({ start, end }) => [start / 16_000, end / 16_000])).toEqual([[0.5, 2], [2.6, 3.5]]);
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
