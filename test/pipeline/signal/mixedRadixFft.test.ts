import { describe, expect, it } from 'vitest';
import { MixedRadixFft } from '../../../src/pipeline/signal/mixedRadixFft.js';

/** |X[k]|² by the plain sum, k = 0 … N/2. */
function naivePowerSpectrum(frame: readonly number[]): number[] {
  const size = frame.length;
  return Array.from({ length: Math.floor(size / 2) + 1 }, (_, bin) => {
    let real = 0;
    let imaginary = 0;
    frame.forEach((sample, index) => {
      real += sample * Math.cos((-2 * Math.PI * bin * index) / size);
      imaginary += sample * Math.sin((-2 * Math.PI * bin * index) / size);
    });
    return real * real + imaginary * imaginary;
  });
}

describe('MixedRadixFft', () => {
  // 400 (4·4·5·5, the 25 ms window at 16 kHz), powers of two, a prime, and mixed factors.
  it.each([400, 512, 7, 12, 90, 1])('gives the plain DFT\'s power spectrum for %i points', (size) => {
    let state = 12345;
    const frame = Array.from({ length: size }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 30 - 1;
    });
    const power = new Float64Array(Math.floor(size / 2) + 1);
    new MixedRadixFft(size).powerSpectrum(frame, power);
    const expected = naivePowerSpectrum(frame);
    for (let bin = 0; bin < power.length; bin++) expect(power[bin]).toBeCloseTo(expected[bin]!, 6);
  });

  it('puts a pure tone in its bin', () => {
    const size = 400;
    const power = new Float64Array(size / 2 + 1);
    new MixedRadixFft(size).powerSpectrum(Array.from({ length: size }, (_, index) => Math.cos((2 * Math.PI * 25 * index) / size)), power);
    expect(power[25]).toBeCloseTo((size / 2) ** 2, 6);
    expect(Math.max(...power.filter((_, bin) => bin !== 25))).toBeLessThan(1e-12);
  });

  it('refuses a frame of another length', () => {
    expect(() => new MixedRadixFft(400).powerSpectrum(new Float64Array(399), new Float64Array(201))).toThrow(/400 points given 399/);
  });
});
