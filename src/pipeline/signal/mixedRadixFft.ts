import { splitRealPowerSpectrum } from './splitRealPowerSpectrum.js';

/**
 * A forward FFT of any length whose prime factors are small (400 = 4·4·5·5, the 25 ms window at
 * 16 kHz that librosa and Whisper take unpadded), as numpy's `fft.rfft` computes it: unnormalised,
 * X[k] = Σₙ x[n]·e^(−2πi·kn/N). A real frame of even length is packed into a complex one of half
 * the length; the complex FFT is recursive decimation in time (the structure of KISS FFT): the
 * input is split by a factor p into p interleaved sequences, each transformed, then joined by
 * p-point butterflies. Cost about (N/2)·Σp complex multiplications (200·16 for 400), against N²
 * for the plain sum.
 */
export class MixedRadixFft {
  /** For an even length: the complex FFT of half the length that the real frame is packed into. */
  private readonly half?: ComplexFft;
  /** For an odd length: the complex FFT of the whole frame, its imaginary part 0. */
  private readonly whole?: ComplexFft;
  /** shape: (size / 2) each: e^(−2πi·k/size), the split step's twiddles */
  private readonly splitReal: Float64Array;
  private readonly splitImaginary: Float64Array;
  private readonly packedReal: Float64Array;
  private readonly packedImaginary: Float64Array;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`FFT length must be a positive integer, not ${size}`);
    const halfSize = size % 2 === 0 ? size / 2 : 0;
    if (halfSize > 0) this.half = new ComplexFft(halfSize);
    else this.whole = new ComplexFft(size);
    this.splitReal = Float64Array.from({ length: halfSize }, (_, bin) => Math.cos((-2 * Math.PI * bin) / size));
    this.splitImaginary = Float64Array.from({ length: halfSize }, (_, bin) => Math.sin((-2 * Math.PI * bin) / size));
    this.packedReal = new Float64Array(halfSize);
    this.packedImaginary = new Float64Array(halfSize);
  }

  /**
   * The power spectrum |X[k]|² of a real frame, for k = 0 … size/2 (numpy's rfft bins). An even
   * length is transformed as half as many complex points (z[n] = x[2n] + i·x[2n+1]), then split
   * into the even and odd samples' spectra ({@link splitRealPowerSpectrum}): about half the work.
   * @param frame shape: (size)
   * @param power shape: (⌊size/2⌋ + 1), written
   */
  powerSpectrum(frame: ArrayLike<number>, power: Float64Array): void {
    if (frame.length !== this.size) throw new Error(`FFT of ${this.size} points given ${frame.length} samples`);
    if (this.whole) {
      const { real, imaginary } = this.whole.transform(frame);
      for (let bin = 0; bin < power.length; bin++) power[bin] = real[bin]! * real[bin]! + imaginary[bin]! * imaginary[bin]!;
      return;
    }
    const { packedReal, packedImaginary, splitReal, splitImaginary } = this;
    const halfSize = packedReal.length;
    for (let index = 0; index < halfSize; index++) {
      packedReal[index] = frame[2 * index]!;
      packedImaginary[index] = frame[2 * index + 1]!;
    }
    const { real, imaginary } = this.half!.transform(packedReal, packedImaginary);
    splitRealPowerSpectrum(real, imaginary, splitReal, splitImaginary, power);
  }
}

/**
 * The complex FFT of any length by recursive decimation in time (the structure of KISS FFT): the
 * input is split by a factor p into p interleaved sequences, each transformed, then joined by
 * p-point butterflies.
 */
class ComplexFft {
  /** (radix, length after it) for each stage: 200 → [4, 50], [2, 25], [5, 5], [5, 1]. */
  private readonly stages: { radix: number; remaining: number }[];
  /** shape: (size) each: e^(−2πi·j/size) */
  private readonly twiddleReal: Float64Array;
  private readonly twiddleImaginary: Float64Array;
  private readonly outputReal: Float64Array;
  private readonly outputImaginary: Float64Array;
  private readonly scratchReal: Float64Array;
  private readonly scratchImaginary: Float64Array;

  constructor(readonly size: number) {
    this.stages = factorise(size);
    this.twiddleReal = Float64Array.from({ length: size }, (_, index) => Math.cos((-2 * Math.PI * index) / size));
    this.twiddleImaginary = Float64Array.from({ length: size }, (_, index) => Math.sin((-2 * Math.PI * index) / size));
    this.outputReal = new Float64Array(size);
    this.outputImaginary = new Float64Array(size);
    const largestRadix = Math.max(1, ...this.stages.map((stage) => stage.radix));
    this.scratchReal = new Float64Array(largestRadix);
    this.scratchImaginary = new Float64Array(largestRadix);
  }

  /**
   * The spectrum of `real` + i·`imaginary` (0 when not given).
   * @returns shape: (size) each, views of buffers the next call overwrites
   */
  transform(real: ArrayLike<number>, imaginary?: ArrayLike<number>): { real: Float64Array; imaginary: Float64Array } {
    this.work(0, real, imaginary, 0, 1, 0);
    return { real: this.outputReal, imaginary: this.outputImaginary };
  }

  /**
   * Transforms the `remaining·radix` input samples at `inputOffset`, `inputStride` apart, into
   * the output at `outputOffset`.
   */
  private work(outputOffset: number, inputReal: ArrayLike<number>, inputImaginary: ArrayLike<number> | undefined, inputOffset: number, inputStride: number, stageIndex: number): void {
    const { radix, remaining } = this.stages[stageIndex]!;
    if (remaining === 1) {
      for (let index = 0; index < radix; index++) {
        this.outputReal[outputOffset + index] = inputReal[inputOffset + index * inputStride]!;
        this.outputImaginary[outputOffset + index] = inputImaginary ? inputImaginary[inputOffset + index * inputStride]! : 0;
      }
    } else {
      for (let index = 0; index < radix; index++) {
        this.work(outputOffset + index * remaining, inputReal, inputImaginary, inputOffset + index * inputStride, inputStride * radix, stageIndex + 1);
      }
    }
    this.butterflies(outputOffset, inputStride, remaining, radix);
  }

  /** Joins `radix` transforms of `remaining` points each (adjacent at `offset`) into one. */
  private butterflies(offset: number, twiddleStride: number, remaining: number, radix: number): void {
    const { outputReal: real, outputImaginary: imaginary, twiddleReal, twiddleImaginary, scratchReal, scratchImaginary, size } = this;
    for (let column = 0; column < remaining; column++) {
      for (let row = 0; row < radix; row++) {
        scratchReal[row] = real[offset + column + row * remaining]!;
        scratchImaginary[row] = imaginary[offset + column + row * remaining]!;
      }
      for (let row = 0; row < radix; row++) {
        const target = column + row * remaining;
        let sumReal = scratchReal[0]!;
        let sumImaginary = scratchImaginary[0]!;
        let twiddle = 0;
        for (let term = 1; term < radix; term++) {
          twiddle = (twiddle + twiddleStride * target) % size;
          const cos = twiddleReal[twiddle]!;
          const sin = twiddleImaginary[twiddle]!;
          sumReal += scratchReal[term]! * cos - scratchImaginary[term]! * sin;
          sumImaginary += scratchReal[term]! * sin + scratchImaginary[term]! * cos;
        }
        real[offset + target] = sumReal;
        imaginary[offset + target] = sumImaginary;
      }
    }
  }
}

/** Radix 4 first, then 2, then odd primes (KISS FFT's order); a large prime factor stays whole. */
function factorise(size: number): { radix: number; remaining: number }[] {
  const stages: { radix: number; remaining: number }[] = [];
  let remaining = size;
  let radix = 4;
  while (remaining > 1) {
    while (remaining % radix !== 0) {
      radix = radix === 4 ? 2 : radix === 2 ? 3 : radix + 2;
      if (radix * radix > remaining) radix = remaining;
    }
    remaining /= radix;
    stages.push({ radix, remaining });
  }
  return stages.length > 0 ? stages : [{ radix: 1, remaining: 1 }];
}
