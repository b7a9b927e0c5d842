import { describe, expect, it } from 'vitest';
import { parseWhisperJson, whisperLanguage } from '../../../src/pipeline/transcription/parseWhisperJson.js';
import { fixture } from './transcriptionTestFiles.js';

describe('parseWhisperJson', () => {
  it('reads whisper-cli full JSON: segments with their tokens, offsets and probabilities', () => {
    const json = parseWhisperJson(fixture('english-base-en.json'));
    expect(json.transcription).toHaveLength(6);
    expect(json.transcription[0]!.offsets).toEqual({ from: 320, to: 2270 });
    expect(json.transcription[0]!.tokens![1]).toMatchObject({ text: ' And', offsets: { from: 320, to: 510 }, id: 843, p: 0.71 });
    expect(whisperLanguage(json)).toBe('en');
  });

  it('reads the detected language of a multilingual model', () => {
    expect(whisperLanguage(parseWhisperJson(fixture('german-base.json')))).toBe('de');
  });

  it('falls back to the language whisper was told when none was detected, but not to "auto"', () => {
    const base = { transcription: [] };
    expect(whisperLanguage(parseWhisperJson(JSON.stringify({ ...base, params: { language: 'fr' } })))).toBe('fr');
    expect(whisperLanguage(parseWhisperJson(JSON.stringify({ ...base, params: { language: 'auto' } })))).toBeUndefined();
  });

  it('accepts a token holding a raw control character, which whisper.cpp does not escape', () => {
    // whisper.cpp escapes only `"` and `\`: a newline token lands in the file as a raw newline.
    const text = fixture('english-base-en.json').replace('"text": " so"', '"text": " so\n"').replace('"text": " my"', '"text": " \\"my\\"\t"');
    const tokens = parseWhisperJson(text).transcription[0]!.tokens!;
    expect(tokens[2]!.text).toBe(' so\n');
    expect(tokens[3]!.text).toBe(' "my"\t');
  });

  it('throws an internal error, naming neither file nor text, for output that is not whisper JSON', () => {
    expect(() => parseWhisperJson('{"transcription": [')).toThrow('whisper-cli wrote output that is not JSON');
    expect(() => parseWhisperJson('{"transcription": [{"text": " secret words"}]}')).toThrow(/unexpected shape \(\/transcription\/0/);
    expect(() => parseWhisperJson('{"transcription": [{"text": " secret words"}]}')).not.toThrow(/secret/);
  });
});
