import { expect, test } from 'vitest';
import { soloSpans } from '../../../src/pipeline/voice/matchCallVoices.js';

const turn = (speaker: string, startSeconds: number, endSeconds: number) => ({ speaker, startSeconds, endSeconds });

test('overlapping speech belongs to nobody; each speaker keeps what they say alone, longest first', () => {
  const spans = soloSpans([turn('A', 0, 5), turn('B', 4, 6), turn('A', 7, 8), turn('B', 8, 12)]);
  expect(spans.get('A')).toEqual([{ startSeconds: 0, endSeconds: 4 }, { startSeconds: 7, endSeconds: 8 }]);
  expect(spans.get('B')).toEqual([{ startSeconds: 8, endSeconds: 12 }, { startSeconds: 5, endSeconds: 6 }]);
});

test('a speaker\'s own overlapping turns merge; spans under half a second are dropped', () => {
  const spans = soloSpans([turn('A', 0, 2), turn('A', 1, 3), turn('B', 3, 3.3), turn('A', 3.3, 4)]);
  expect(spans.get('A')).toEqual([{ startSeconds: 0, endSeconds: 3 }, { startSeconds: 3.3, endSeconds: 4 }]);
  expect(spans.get('B')).toEqual([]);
});

test('a speaker always overlapped by another has no solo span; empty turns are ignored', () => {
  const spans = soloSpans([turn('A', 0, 10), turn('B', 2, 4), turn('C', 5, 5)]);
  expect(spans.get('B')).toBeUndefined();
  expect(spans.get('C')).toBeUndefined();
  expect(spans.get('A')).toEqual([{ startSeconds: 4, endSeconds: 10 }, { startSeconds: 0, endSeconds: 2 }]);
});
