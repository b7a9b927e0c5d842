import { splitRealPowerSpectrum } from '../../signal/splitRealPowerSpectrum.js';

/**
 * Kaldi-compatible log mel filterbank features (`compute-fbank-feats`, torchaudio's
 * `compliance.kaldi.fbank`), the input of WeSpeaker and 3D-Speaker embedding models:
 * 25 ms frames every 10 ms (edges snipped), DC offset removed, pre-emphasis 0.97, povey window,
 * zero-padded to 512 samples, power spectrum, 80 triangular mel filters from 20 Hz to
 * Nyquist, natural log floored at float32 epsilon; no dither, no energy column.
 */

export interface FbankOptions {
  /** Defaults to `16000`. */
  sampleRate?: number;
  /** Defaults to `80`. */
  melBins?: number;
  /** Defaults to `'povey'` (Kaldi's default; 3D-Speaker's recipes). WeSpeaker's recipes use `'hamming'`. */
  window?: 'povey' | 'hamming';
}

export interface Fbank {
  frames: number;
  melBins: number;
  /** shape: (frames, melBins), natural-log energies */
  features: Float32Array;
}

const FRAME_SECONDS = 0.025;
const SHIFT_SECONDS = 0.01;
const PREEMPHASIS = 0.97;
const LOW_FREQUENCY_HZ = 20;
const FLOAT32_EPSILON = 1.1920928955078125e-7;

/** Frames Kaldi makes of `samples` samples (snip_edges): 1 + ⌊(samples − 400) / 160⌋ at 16 kHz, 0 when shorter than one frame. */
export function fbankFrameCount(samples: number, sampleRate = 16000): number {
  const frameLength = Math.round(FRAME_SECONDS * sampleRate);
  const shift = Math.round(SHIFT_SECONDS * sampleRate);
  return samples < frameLength ? 0 : 1 + Math.floor((samples - frameLength) / shift);
}

/**
 * Log mel filterbank of a mono signal.
 * @param samples shape: (samples), on the 16-bit integer scale (-32768..32767) as Kaldi expects
 */
export function computeFbank(samples: Float32Array, options: FbankOptions = {}): Fbank {
  const setup = fbankSetup(options.sampleRate ?? 16000, options.melBins ?? 80, options.window ?? 'povey');
  const { frameLength, shift, fftSize, window, filters, melBins } = setup;
  const frames = fbankFrameCount(samples.length, setup.sampleRate);
  const features = new Float32Array(frames * melBins);
  // The windowed frame, zero-padded to fftSize (the padding is never written).
  const windowed = new Float64Array(fftSize);
  // shape: (fftSize / 2) each: the frame packed as complex points, then their spectrum
  const real = new Float64Array(fftSize / 2);
  const imaginary = new Float64Array(fftSize / 2);
  const power = new Float64Array(fftSize / 2 + 1);

  for (let frame = 0; frame < frames; frame++) {
    const offset = frame * shift;
    let mean = 0;
    for (let index = 0; index < frameLength; index++) mean += samples[offset + index]!;
    mean /= frameLength;
    // Pre-emphasis runs backwards so each sample still sees its unemphasised predecessor; the first sample is its own predecessor.
    for (let index = frameLength - 1; index >= 0; index--) {
      const current = samples[offset + index]! - mean;
      const previous = index > 0 ? samples[offset + index - 1]! - mean : current;
      windowed[index] = (current - PREEMPHASIS * previous) * window[index]!;
    }
    realPowerSpectrum(windowed, real, imaginary, power, setup);
    for (let mel = 0; mel < melBins; mel++) {
      const { firstBin, weights } = filters[mel]!;
      let energy = 0;
      for (let index = 0; index < weights.length; index++) energy += weights[index]! * power[firstBin + index]!;
      features[frame * melBins + mel] = Math.log(Math.max(energy, FLOAT32_EPSILON));
    }
  }
  return { frames, melBins, features };
}

/**
 * Subtracts each mel bin's mean over the given frames (cepstral mean normalisation, as
 * WeSpeaker and pyannote do before the embedding model), in place.
 * @param features shape: (frames, melBins)
 */
export function subtractMean(features: Float32Array, melBins: number): Float32Array {
  const frames = features.length / melBins;
  if (frames === 0) return features;
  const means = new Float64Array(melBins);
  for (let index = 0; index < features.length; index++) means[index % melBins]! += features[index]!;
  for (let index = 0; index < features.length; index++) features[index]! -= means[index % melBins]! / frames;
  return features;
}

interface FbankSetup {
  sampleRate: number;
  melBins: number;
  frameLength: number;
  shift: number;
  fftSize: number;
  /** shape: (frameLength) */
  window: Float64Array;
  /** Non-zero part of each triangular filter over power-spectrum bins. */
  filters: { firstBin: number; weights: Float64Array }[];
  /** shape: (fftSize / 2): cos(2πk/fftSize) and −sin(2πk/fftSize) */
  cosines: Float64Array;
  sines: Float64Array;
  /** shape: (fftSize / 2): the bit-reversal permutation of the half-length complex FFT */
  bitReversed: Uint16Array;
}

const setups = new Map<string, FbankSetup>();

function fbankSetup(sampleRate: number, melBins: number, windowType: 'povey' | 'hamming'): FbankSetup {
  const key = `${sampleRate}/${melBins}/${windowType}`;
  const cached = setups.get(key);
  if (cached) return cached;
  const frameLength = Math.round(FRAME_SECONDS * sampleRate);
  const shift = Math.round(SHIFT_SECONDS * sampleRate);
  let fftSize = 1;
  while (fftSize < frameLength) fftSize *= 2;

  const window = new Float64Array(frameLength);
  for (let index = 0; index < frameLength; index++) {
    const phase = (2 * Math.PI * index) / (frameLength - 1);
    window[index] = windowType === 'povey' ? (0.5 - 0.5 * Math.cos(phase)) ** 0.85 : 0.54 - 0.46 * Math.cos(phase);
  }

  // Kaldi's mel banks: triangles equally spaced on the mel scale over the FFT bins below Nyquist.
  const mel = (hz: number) => 1127 * Math.log(1 + hz / 700);
  const melLow = mel(LOW_FREQUENCY_HZ);
  const melHigh = mel(sampleRate / 2);
  const melDelta = (melHigh - melLow) / (melBins + 1);
  const binHz = sampleRate / fftSize;
  const filters = Array.from({ length: melBins }, (_, filter) => {
    const left = melLow + filter * melDelta;
    const center = left + melDelta;
    const right = center + melDelta;
    const weights: number[] = [];
    let firstBin = -1;
    for (let bin = 0; bin < fftSize / 2; bin++) {
      const binMel = mel(bin * binHz);
      const weight = Math.max(0, Math.min((binMel - left) / (center - left), (right - binMel) / (right - center)));
      if (weight > 0) {
        if (firstBin < 0) firstBin = bin;
        weights[bin - firstBin] = weight;
      }
    }
    return { firstBin: Math.max(0, firstBin), weights: Float64Array.from(weights, (weight) => weight ?? 0) };
  });

  const cosines = new Float64Array(fftSize / 2);
  const sines = new Float64Array(fftSize / 2);
  for (let index = 0; index < fftSize / 2; index++) {
    cosines[index] = Math.cos((2 * Math.PI * index) / fftSize);
    sines[index] = -Math.sin((2 * Math.PI * index) / fftSize);
  }
  const bits = Math.log2(fftSize / 2);
  const bitReversed = new Uint16Array(fftSize / 2);
  for (let index = 0; index < fftSize / 2; index++) {
    let reversed = 0;
    for (let bit = 0; bit < bits; bit++) reversed |= ((index >> bit) & 1) << (bits - 1 - bit);
    bitReversed[index] = reversed;
  }

  const setup = { sampleRate, melBins, frameLength, shift, fftSize, window, filters, cosines, sines, bitReversed };
  setups.set(key, setup);
  return setup;
}

/**
 * |X[k]|² for k = 0 … fftSize/2 of a real frame: the frame packed as fftSize/2 complex points,
 * transformed, then split (see {@link splitRealPowerSpectrum}).
 * @param frame shape: (fftSize)
 * @param real shape: (fftSize / 2), scratch
 * @param imaginary shape: (fftSize / 2), scratch
 * @param power shape: (fftSize / 2 + 1), written
 */
function realPowerSpectrum(frame: Float64Array, real: Float64Array, imaginary: Float64Array, power: Float64Array, setup: FbankSetup): void {
  const half = setup.fftSize / 2;
  for (let index = 0; index < half; index++) {
    real[index] = frame[2 * index]!;
    imaginary[index] = frame[2 * index + 1]!;
  }
  fft(real, imaginary, setup);
  splitRealPowerSpectrum(real, imaginary, setup.cosines, setup.sines, power);
}

/** In-place iterative radix-2 FFT (forward, unnormalised) of fftSize / 2 complex points, with the twiddles of fftSize. */
function fft(real: Float64Array, imaginary: Float64Array, setup: FbankSetup): void {
  const { fftSize, cosines, sines, bitReversed } = setup;
  const size = fftSize / 2;
  for (let index = 0; index < size; index++) {
    const target = bitReversed[index]!;
    if (target > index) {
      const r = real[index]!;
      real[index] = real[target]!;
      real[target] = r;
      const i = imaginary[index]!;
      imaginary[index] = imaginary[target]!;
      imaginary[target] = i;
    }
  }
  for (let half = 1; half < size; half *= 2) {
    // e^(−2πi·offset/(2·half)) is entry offset·fftSize/(2·half) of fftSize's table.
    const stride = fftSize / (2 * half);
    for (let start = 0; start < size; start += 2 * half) {
      for (let offset = 0; offset < half; offset++) {
        const cos = cosines[offset * stride]!;
        const sin = sines[offset * stride]!;
        const even = start + offset;
        const odd = even + half;
        const oddReal = real[odd]! * cos - imaginary[odd]! * sin;
        const oddImaginary = real[odd]! * sin + imaginary[odd]! * cos;
        real[odd] = real[even]! - oddReal;
        imaginary[odd] = imaginary[even]! - oddImaginary;
        real[even]! += oddReal;
        imaginary[even]! += oddImaginary;
      }
    }
  }
}
