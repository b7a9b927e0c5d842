import { MixedRadixFft } from '../../signal/mixedRadixFft.js';
import { nonZeroBandBins, slaneyMelFilters, type MelFilterbank } from '../../signal/slaneyMelFilters.js';

/**
 * The front end the GE2E voice encoder (Resemblyzer) was trained with, as its `audio.py` and
 * `VoiceEncoder.embed_utterance` compute it:
 * - the volume raised (never lowered) to −30 dBFS RMS;
 * - a mel power spectrogram, not logarithmic: librosa's `feature.melspectrogram` at 16 kHz with
 *   a 400-point FFT (25 ms Hann windows, periodic) every 160 samples (10 ms), the signal padded
 *   with 200 zeros at each end (`center=True`), |X|² through 40 Slaney mel filters;
 * - partial utterances of 160 frames (1.6 s) about every 0.77 s (1.3 a second, so about half
 *   overlapping), the audio zero-padded to the last one's end, which is dropped when it holds
 *   less than 75 % audio (unless it is the only one).
 * Resemblyzer also cuts silences longer than about 0.2 s with WebRTC's VAD before all this; the
 * pipeline gives the encoder speech only, found by its own models.
 */
export const ge2eFrontEnd = {
  sampleRate: 16_000,
  melBands: 40,
  fftSize: 400,
  hopSamples: 160,
  partialFrames: 160,
  partialsPerSecond: 1.3,
  minLastPartialCoverage: 0.75,
  targetDbfs: -30,
} as const;

/** A run of frames of the mel spectrogram, `[start, end)`. */
export interface PartialSlice {
  startFrame: number;
  endFrame: number;
}

/**
 * `samples` raised to {@link ge2eFrontEnd.targetDbfs} RMS when quieter (a new array); louder or
 * silent audio is returned as it is.
 * @param samples shape: (samples), floats in −1 … 1
 */
export function raiseVolume(samples: Float32Array, targetDbfs: number = ge2eFrontEnd.targetDbfs): Float32Array {
  let sumOfSquares = 0;
  for (const sample of samples) sumOfSquares += sample * sample;
  const rms = Math.sqrt(sumOfSquares / Math.max(1, samples.length));
  if (rms === 0) return samples;
  const changeDb = targetDbfs - 20 * Math.log10(rms);
  if (changeDb <= 0) return samples;
  const gain = 10 ** (changeDb / 20);
  return Float32Array.from(samples, (sample) => sample * gain);
}

/**
 * Where the partial utterances of `sampleCount` samples lie (Resemblyzer's
 * `compute_partial_slices` at its defaults), and how many samples the audio must be padded to.
 */
export function partialSlices(sampleCount: number): { slices: PartialSlice[]; paddedSamples: number } {
  const { sampleRate, hopSamples, partialFrames, partialsPerSecond, minLastPartialCoverage } = ge2eFrontEnd;
  const frameCount = Math.ceil((sampleCount + 1) / hopSamples);
  const frameStep = Math.round(sampleRate / partialsPerSecond / hopSamples);
  const steps = Math.max(1, frameCount - partialFrames + frameStep + 1);
  const slices: PartialSlice[] = [];
  for (let start = 0; start < steps; start += frameStep) slices.push({ startFrame: start, endFrame: start + partialFrames });
  const last = slices.at(-1)!;
  const coverage = (sampleCount - last.startFrame * hopSamples) / ((last.endFrame - last.startFrame) * hopSamples);
  if (coverage < minLastPartialCoverage && slices.length > 1) slices.pop();
  return { slices, paddedSamples: Math.max(sampleCount, slices.at(-1)!.endFrame * hopSamples) };
}

/**
 * The mel power spectrogram of `samples` (see {@link ge2eFrontEnd}): 1 + ⌊samples / 160⌋ frames.
 * @param samples shape: (samples), floats in −1 … 1 at 16 kHz
 * @returns shape: (frames, 40), row-major
 */
export function melPowerSpectrogram(samples: Float32Array): { frames: number; mels: Float32Array } {
  const { fftSize, hopSamples, melBands } = ge2eFrontEnd;
  const { fft, window, filters, bandBins } = setup();
  const frames = 1 + Math.floor(samples.length / hopSamples);
  const mels = new Float32Array(frames * melBands);
  const frame = new Float64Array(fftSize);
  const power = new Float64Array(filters.frequencyBins);
  const padding = fftSize / 2;
  for (let index = 0; index < frames; index++) {
    // Frame `index` covers samples [index·160 − 200, index·160 + 200): zeros outside the signal.
    const first = index * hopSamples - padding;
    for (let offset = 0; offset < fftSize; offset++) {
      const position = first + offset;
      frame[offset] = position >= 0 && position < samples.length ? samples[position]! * window[offset]! : 0;
    }
    fft.powerSpectrum(frame, power);
    for (let band = 0; band < melBands; band++) {
      let energy = 0;
      const row = band * filters.frequencyBins;
      const { firstBin, endBin } = bandBins[band]!;
      for (let bin = firstBin; bin < endBin; bin++) energy += filters.weights[row + bin]! * power[bin]!;
      mels[index * melBands + band] = energy;
    }
  }
  return { frames, mels };
}

/**
 * The encoder's input for one utterance: its partials' mel frames, stacked.
 * @param samples shape: (samples), floats in −1 … 1 at 16 kHz, speech only
 * @returns shape: (partials, 160, 40), row-major
 */
export function ge2ePartials(samples: Float32Array): { partials: number; mels: Float32Array } {
  const { melBands, partialFrames } = ge2eFrontEnd;
  const raised = raiseVolume(samples);
  const { slices, paddedSamples } = partialSlices(raised.length);
  let padded = raised;
  if (paddedSamples > raised.length) {
    padded = new Float32Array(paddedSamples);
    padded.set(raised);
  }
  const spectrogram = melPowerSpectrogram(padded);
  const mels = new Float32Array(slices.length * partialFrames * melBands);
  slices.forEach((slice, index) => {
    mels.set(spectrogram.mels.subarray(slice.startFrame * melBands, slice.endFrame * melBands), index * partialFrames * melBands);
  });
  return { partials: slices.length, mels };
}

interface FrontEndSetup {
  fft: MixedRadixFft;
  /** shape: (fftSize): scipy's `get_window('hann', 400)`, periodic */
  window: Float64Array;
  filters: MelFilterbank;
  /** shape: (melBands): each filter's span of bins with a weight */
  bandBins: { firstBin: number; endBin: number }[];
}

let cachedSetup: FrontEndSetup | undefined;

function setup(): FrontEndSetup {
  const { fftSize, melBands, sampleRate } = ge2eFrontEnd;
  if (!cachedSetup) {
    const filters = slaneyMelFilters(melBands, sampleRate, fftSize);
    cachedSetup = {
      fft: new MixedRadixFft(fftSize),
      window: Float64Array.from({ length: fftSize }, (_, index) => 0.5 - 0.5 * Math.cos((2 * Math.PI * index) / fftSize)),
      filters,
      bandBins: nonZeroBandBins(filters),
    };
  }
  return cachedSetup;
}
