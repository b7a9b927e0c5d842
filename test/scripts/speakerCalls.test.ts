import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callSetOf, loadSpeakerCalls, speakerCallProblems, type SpeakerCallsFile } from '../../scripts/evaluation/speakerCalls.js';

const file = loadSpeakerCalls();
const work = mkdtempSync(join(tmpdir(), 'callscope-speaker-calls-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes a changed copy of the file and loads it: the loader's message, or undefined when it loads. */
function loadChanged(change: (copy: SpeakerCallsFile) => void): string | undefined {
  const copy = structuredClone(file);
  change(copy);
  const path = join(work, 'speakerCalls.json');
  writeFileSync(path, JSON.stringify(copy));
  try {
    loadSpeakerCalls(path);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the eval:speakers calls (scripts/evaluation/speakerCalls.json)', () => {
  test('35 calls written beside the resolver and 18 written with the expectations, ids unique', () => {
    expect(file.calls.filter((call) => callSetOf(call) === 'original')).toHaveLength(35);
    expect(file.calls.filter((call) => callSetOf(call) === 'new')).toHaveLength(18);
    expect(new Set(file.calls.map(({ id }) => id)).size).toBe(file.calls.length);
  });

  test('every speaker who says a line has an expectation, and every expectation a speaker', () => {
    expect(speakerCallProblems(file)).toEqual([]);
    for (const call of file.calls) {
      expect(Object.keys(call.expected).sort()).toEqual([...new Set(call.lines.map(({ speaker }) => speaker))].sort());
    }
  });

  test('the file says who wrote the expectations and what the roles mean', () => {
    expect(file.expectationsWrittenBy).toMatch(/never read the speaker resolver/);
    expect(file.roleMeaning).toMatch(/USER is the phone's owner/);
  });

  test('a call diarized by channel states SPEAKER_00 left and SPEAKER_01 right, the product\'s naming', () => {
    const byChannel = file.calls.filter(({ stereo }) => stereo?.diarizedBy === 'channel');
    expect(byChannel.length).toBeGreaterThan(0);
    for (const { stereo } of byChannel) expect(stereo).toMatchObject({ speakerOnChannel: { left: 'SPEAKER_00', right: 'SPEAKER_01' } });
  });
});

describe('loadSpeakerCalls refuses a malformed file, naming what is wrong', () => {
  test.each<[string, (copy: SpeakerCallsFile) => void, RegExp]>([
    ['a speaker without an expectation', (copy) => { delete copy.calls[0]!.expected.SPEAKER_01; }, /call-01: SPEAKER_01 says a line but has no expectation/],
    ['an expectation for a speaker who says nothing', (copy) => {
      copy.calls[0]!.expected.SPEAKER_02 = { role: 'UNKNOWN', name: null, certainty: 'clear', why: 'A third voice.' };
    }, /call-01: SPEAKER_02 has an expectation but says no line/],
    ['an id used twice', (copy) => { copy.calls[1]!.id = 'call-01'; }, /call-01: the id is used twice/],
    ['an id of neither set', (copy) => { copy.calls[0]!.id = 'extra-1'; }, /\/calls\/0\/id/],
    ['a role the spec does not have', (copy) => { Object.assign(copy.calls[0]!.expected.SPEAKER_00!, { role: 'CALLER' }); }, /\/calls\/0\/expected\/SPEAKER_00\/role/],
    ['an expectation without a reason', (copy) => { Object.assign(copy.calls[0]!.expected.SPEAKER_00!, { why: '' }); }, /\/calls\/0\/expected\/SPEAKER_00\/why/],
    ['a speaker id diarization never gives', (copy) => { Object.assign(copy.calls[0]!.lines[0]!, { speaker: 'SPEAKER_07' }); }, /\/calls\/0\/lines\/0\/speaker/],
    ['the channels the other way round', (copy) => {
      const call = copy.calls.find(({ stereo }) => stereo?.diarizedBy === 'channel')!;
      Object.assign(call.stereo!, { speakerOnChannel: { left: 'SPEAKER_01', right: 'SPEAKER_00' } });
    }, /stereo\/speakerOnChannel\/left/],
    ['no word on who wrote the expectations', (copy) => { Reflect.deleteProperty(copy, 'expectationsWrittenBy'); }, /expectationsWrittenBy/],
  ])('%s', (_case, change, message) => {
    expect(loadChanged(change)).toMatch(message);
  });

  test('an unchanged copy loads', () => {
    expect(loadChanged(() => undefined)).toBeUndefined();
  });
});
