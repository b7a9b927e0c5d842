import { describe, expect, it } from 'vitest';
import { antiHallucinationArguments, whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';

const base = { modelPath: '/m/whisper.bin', audioPath: '/w/cleaned.wav', outputBase: '/t/transcript', threads: 3, language: 'auto' };

/** The value after `flag`, or undefined. */
function valueOf(args: readonly string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

describe('whisperCliArguments', () => {
  it('passes model, audio, threads, language and the full JSON output as separate arguments', () => {
    const args = whisperCliArguments(base);
    expect(valueOf(args, '-m')).toBe('/m/whisper.bin');
    expect(valueOf(args, '-f')).toBe('/w/cleaned.wav');
    expect(valueOf(args, '-t')).toBe('3');
    expect(valueOf(args, '-l')).toBe('auto');
    expect(valueOf(args, '-of')).toBe('/t/transcript');
    expect(args).toContain('-ojf');
    expect(args).toContain('-pp');
  });

  it('passes a configured language as given', () => {
    expect(valueOf(whisperCliArguments({ ...base, language: 'de' }), '-l')).toBe('de');
  });

  it('keeps a path with spaces or shell characters one argument (no shell)', () => {
    const audioPath = "/w/it's $(rm -rf) a call.wav";
    expect(valueOf(whisperCliArguments({ ...base, audioPath }), '-f')).toBe(audioPath);
  });

  it('turns on VAD with its model only when one is given', () => {
    expect(whisperCliArguments(base)).not.toContain('--vad');
    expect(whisperCliArguments(base)).not.toContain('--vad-model');
    const withVad = whisperCliArguments({ ...base, vadModelPath: '/m/vad.bin' });
    expect(withVad).toContain('--vad');
    expect(valueOf(withVad, '--vad-model')).toBe('/m/vad.bin');
  });

  it('always passes the anti-hallucination settings: non-speech tokens suppressed, no carried context, thresholds, fallback on', () => {
    const args = whisperCliArguments(base);
    expect(args).toEqual(expect.arrayContaining([...antiHallucinationArguments]));
    expect(args).toContain('--suppress-nst');
    expect(valueOf(args, '-mc')).toBe('0');
    expect(valueOf(args, '-et')).toBe('2.4');
    expect(valueOf(args, '-lpt')).toBe('-1.0');
    expect(valueOf(args, '-nth')).toBe('0.6');
    expect(args).not.toContain('-nf');
  });

  it('uses token timestamps, not the experimental DTW', () => {
    expect(whisperCliArguments(base)).not.toContain('-dtw');
  });
});
