import { describe, expect, it } from 'vitest';
import { antiHallucinationArguments, defaultWhisperBeamSize, whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';
import { whisperServerFields } from '../../../src/pipeline/transcription/whisperServerFields.js';

const base = { modelPath: '/m/whisper.bin', audioPath: '/w/cleaned.wav', outputBase: '/t/transcript', threads: 3, language: 'auto', beamSize: 5 };

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

  it('with VAD, keeps a short answering word: threshold 0.35 and stretches from 100 ms (whisper.cpp: 0.5 and 250 ms), the rest stated', () => {
    const withVad = whisperCliArguments({ ...base, vadModelPath: '/m/vad.bin' });
    const vadFlags = ['--vad-threshold', '--vad-min-speech-duration-ms', '--vad-min-silence-duration-ms', '--vad-speech-pad-ms', '--vad-samples-overlap'];
    expect(Object.fromEntries(vadFlags.map((flag) => [flag, valueOf(withVad, flag)]))).toEqual({
      '--vad-threshold': '0.35', '--vad-min-speech-duration-ms': '100', '--vad-min-silence-duration-ms': '100', '--vad-speech-pad-ms': '30', '--vad-samples-overlap': '0.1',
    });
    expect(whisperCliArguments(base).some((arg) => arg.startsWith('--vad'))).toBe(false);
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
});

describe('whisper-cli and whisper-server decode alike', () => {
  /** whisper-cli's flag → the `/inference` form field whisper-server 1.9 reads for the same setting (examples/server/server.cpp). */
  const fieldOfFlag = {
    '-bs': 'beam_size', '-bo': 'best_of', '-tp': 'temperature', '-tpi': 'temperature_inc',
    '-et': 'entropy_thold', '-lpt': 'logprob_thold', '-nth': 'no_speech_thold', '-mc': 'max_context',
  } as const;

  it('whisper-cli is told the beam (WHISPER_BEAM_SIZE, greedy by default), best of 5 and the fallback temperatures, not left to its defaults (its own beam is 5)', () => {
    const searchOf = (args: string[]) => Object.fromEntries(['-bs', '-bo', '-tp', '-tpi'].map((flag) => [flag, valueOf(args, flag)]));
    expect(defaultWhisperBeamSize).toBe(1);
    expect(searchOf(whisperCliArguments({ ...base, beamSize: defaultWhisperBeamSize }))).toEqual({ '-bs': '1', '-bo': '5', '-tp': '0', '-tpi': '0.2' });
    expect(searchOf(whisperCliArguments({ ...base, beamSize: 5 }))).toEqual({ '-bs': '5', '-bo': '5', '-tp': '0', '-tpi': '0.2' });
  });

  it('each request to whisper-server carries every decoding setting whisper-cli is given, with the same value (its own defaults are greedy, best of 2)', () => {
    for (const [prompt, beamSize] of [[undefined, 1], [{ text: 'Zentrix, Maria Lopez.', maxContext: 9 }, 5]] as const) {
      const args = whisperCliArguments({ ...base, prompt, beamSize });
      const fields = new Map(whisperServerFields({ language: 'auto', prompt, beamSize }));
      for (const [flag, field] of Object.entries(fieldOfFlag)) expect(fields.get(field), field).toBe(valueOf(args, flag));
      expect(fields.get('suppress_nst')).toBe(args.includes('--suppress-nst') ? 'true' : undefined);
      expect(fields.get('token_timestamps')).toBe('true');
    }
  });

  it('each request to whisper-server carries whisper-cli\'s VAD settings, with the same values (they override the server\'s start flags)', () => {
    /** whisper-cli's VAD flag → the `/inference` field whisper-server 1.9 reads for it (examples/server/server.cpp). */
    const vadFieldOfFlag = {
      '--vad-threshold': 'vad_threshold', '--vad-min-speech-duration-ms': 'vad_min_speech_duration_ms', '--vad-min-silence-duration-ms': 'vad_min_silence_duration_ms',
      '--vad-speech-pad-ms': 'vad_speech_pad_ms', '--vad-samples-overlap': 'vad_samples_overlap',
    } as const;
    const args = whisperCliArguments({ ...base, vadModelPath: '/m/vad.bin' });
    const fields = new Map(whisperServerFields({ language: 'en', beamSize: 1 }));
    for (const [flag, field] of Object.entries(vadFieldOfFlag)) {
      expect(valueOf(args, flag), flag).toBeDefined();
      expect(fields.get(field), field).toBe(valueOf(args, flag));
    }
  });

  it('whisper-server keeps segments whole, as whisper-cli does (its default 0 means 60 characters, split between any two tokens)', () => {
    expect(Number(new Map(whisperServerFields({ language: 'en', beamSize: 1 })).get('max_len'))).toBeGreaterThanOrEqual(10_000);
    expect(whisperCliArguments(base)).not.toContain('-ml');
  });
});

