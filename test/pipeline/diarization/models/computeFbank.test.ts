import { describe, expect, it } from 'vitest';
import { computeFbank, fbankFrameCount, subtractMean } from '../../../../src/pipeline/diarization/models/computeFbank.js';

const tone = (hz: number, samples: number, amplitude = 16000) =>
  Float32Array.from({ length: samples }, (_, index) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * index) / 16000)));

describe('computeFbank (Kaldi-compatible)', () => {
  it('makes 1 + ⌊(samples − 400) / 160⌋ frames of 80 bins (25 ms every 10 ms, edges snipped)', () => {
    expect([399, 400, 559, 560, 16000].map((samples) => fbankFrameCount(samples))).toEqual([0, 1, 1, 2, 98]);
    const fbank = computeFbank(new Float32Array(16000));
    expect(fbank).toMatchObject({ frames: 98, melBins: 80 });
    expect(fbank.features).toHaveLength(98 * 80);
  });

  it('puts a 1 kHz tone in mel bin 27, the bin whose centre is nearest 1 kHz', () => {
    // Centres are equally spaced on 1127·ln(1 + f/700) between 20 Hz and 8 kHz: bin 27 is centred at 1003 Hz.
    const { features } = computeFbank(tone(1000, 16000));
    const frame = features.subarray(50 * 80, 51 * 80);
    expect(frame.indexOf(Math.max(...frame))).toBe(27);
  });

  it('floors silence at ln(float32 epsilon), as Kaldi does', () => {
    const { features } = computeFbank(new Float32Array(800));
    expect(features[0]).toBeCloseTo(Math.log(1.1920928955078125e-7), 5);
  });

  it('matches a numpy port of torchaudio.compliance.kaldi.fbank to 1e-3', () => {
    // x[n] = round(1000 sin 0.1n + 500 sin 0.37n + 200 sin 2.3n), 1000 samples; reference values from the port.
    const signal = Float32Array.from({ length: 1000 }, (_, n) => Math.round(1000 * Math.sin(0.1 * n) + 500 * Math.sin(0.37 * n) + 200 * Math.sin(2.3 * n)));
    const pick = (features: Float32Array, frame: number, bins: number[]) => bins.map((bin) => features[frame * 80 + bin]!);
    const povey = computeFbank(signal).features;
    expect(pick(povey, 0, [0, 10, 40, 79])).toEqual([9.5468, 15.6922, 2.9317, 6.247].map((value) => expect.closeTo(value, 3)));
    expect(pick(povey, 3, [5, 27, 60])).toEqual([11.6252, 18.0866, 4.8629].map((value) => expect.closeTo(value, 3)));
    const hamming = computeFbank(signal, { window: 'hamming' }).features;
    expect(pick(hamming, 0, [0, 10, 40, 79])).toEqual([10.5021, 15.6085, 9.0226, 10.1063].map((value) => expect.closeTo(value, 3)));
  });

  it('mean normalisation leaves every bin with zero mean over the frames', () => {
    const { features, melBins } = computeFbank(tone(440, 8000));
    subtractMean(features, melBins);
    for (const bin of [0, 20, 79]) {
      let sum = 0;
      for (let frame = 0; frame < features.length / melBins; frame++) sum += features[frame * melBins + bin]!;
      expect(Math.abs(sum)).toBeLessThan(1e-3);
    }
  });
});
