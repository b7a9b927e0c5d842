/**
 * The mel filterbank whisper.cpp model files carry: librosa's `filters.mel(sr, n_fft, n_mels)`
 * with its defaults (Slaney's mel scale, `htk=False`; Slaney's area normalisation; 0 Hz to
 * Nyquist), the same matrix OpenAI ships as `mel_filters.npz` and whisper.cpp's converters copy
 * into each file. Computed in float64 and rounded to float32 the way librosa does (weights
 * rounded, then scaled and rounded again), so the values match the published ones bit for bit.
 */

/** Slaney's scale: linear below 1 kHz (200/3 Hz per mel), logarithmic above (27 mels per factor 6.4). */
const linearHzPerMel = 200 / 3;
const logStartHz = 1000;
const logStartMel = logStartHz / linearHzPerMel;
const logStepPerMel = Math.log(6.4) / 27;

function hzToMel(hz: number): number {
  return hz >= logStartHz ? logStartMel + Math.log(hz / logStartHz) / logStepPerMel : hz / linearHzPerMel;
}

function melToHz(mel: number): number {
  return mel >= logStartMel ? logStartHz * Math.exp(logStepPerMel * (mel - logStartMel)) : linearHzPerMel * mel;
}

/** numpy's `linspace(start, stop, count)`: `start + i·step`, with the last value exactly `stop`. */
function linspace(start: number, stop: number, count: number): number[] {
  const step = (stop - start) / (count - 1);
  return Array.from({ length: count }, (_, index) => (index === count - 1 ? stop : start + index * step));
}

export interface MelFilterbank {
  melBands: number;
  /** Frequency bins of one FFT frame: `fftSize / 2 + 1`. */
  frequencyBins: number;
  /** Row-major weights, shape: (melBands, frequencyBins). */
  weights: Float32Array;
}

/**
 * Whisper's filterbank for `melBands` bands (80; 128 for large-v3) over a `fftSize`-point FFT at
 * `sampleRate` Hz. Defaults: 16 kHz and a 400-point FFT (25 ms windows), as Whisper uses.
 */
export function slaneyMelFilters(melBands: number, sampleRate = 16_000, fftSize = 400): MelFilterbank {
  const frequencyBins = Math.floor(fftSize / 2) + 1;
  // Bin k is at k·sampleRate/fftSize Hz (numpy's rfftfreq).
  const binHz = Array.from({ length: frequencyBins }, (_, bin) => (bin * sampleRate) / fftSize);
  // Band edges: melBands + 2 points evenly spaced in mels from 0 Hz to Nyquist.
  const edgeHz = linspace(hzToMel(0), hzToMel(sampleRate / 2), melBands + 2).map(melToHz);
  const weights = new Float32Array(melBands * frequencyBins);
  for (let band = 0; band < melBands; band += 1) {
    const [lowHz, centreHz, highHz] = [edgeHz[band]!, edgeHz[band + 1]!, edgeHz[band + 2]!];
    // Slaney normalisation: each triangle has unit area over its width in Hz.
    const areaScale = 2 / (highHz - lowHz);
    for (let bin = 0; bin < frequencyBins; bin += 1) {
      const rising = (binHz[bin]! - lowHz) / (centreHz - lowHz);
      const falling = (highHz - binHz[bin]!) / (highHz - centreHz);
      const triangle = Math.fround(Math.max(0, Math.min(rising, falling)));
      weights[band * frequencyBins + bin] = Math.fround(triangle * areaScale);
    }
  }
  return { melBands, frequencyBins, weights };
}

/**
 * Each band's bins with a weight other than 0, `[firstBin, endBin)`: a triangle spans a few
 * bins, and summing only those gives the same energies (5× sooner for 40 bands of a 400-point FFT).
 */
export function nonZeroBandBins(filters: MelFilterbank): { firstBin: number; endBin: number }[] {
  return Array.from({ length: filters.melBands }, (_, band) => {
    const row = filters.weights.subarray(band * filters.frequencyBins, (band + 1) * filters.frequencyBins);
    const firstBin = row.findIndex((weight) => weight !== 0);
    return firstBin < 0 ? { firstBin: 0, endBin: 0 } : { firstBin, endBin: row.findLastIndex((weight) => weight !== 0) + 1 };
  });
}
