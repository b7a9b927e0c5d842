/**
 * A forward FFT of any length whose prime factors are small (400 = 4·4·5·5, the 25 ms window at
 * 16 kHz that librosa and Whisper take unpadded), as numpy's `fft.rfft` computes it: unnormalised,
 * X[k] = Σₙ x[n]·e^(−2πi·kn/N). Recursive decimation in time (the structure of KISS FFT): the
 * input is split by a factor p into p interleaved sequences, each transformed, then joined by
 * p-point butterflies. Cost about N·Σp complex multiplications (N·18 for 400), against N² for
 * the plain sum.
 */
export class MixedRadixFft {
  /** (radix, length after it) for each stage: 400 → [4, 100], [4, 25], [5, 5], [5, 1]. */
  private readonly stages: { radix: number; remaining: number }[];
  /** shape: (size) each: e^(−2πi·j/size) */
  private readonly twiddleReal: Float64Array;
  private readonly twiddleImaginary: Float64Array;
  private readonly outputReal: Float64Array;
  private readonly outputImaginary: Float64Array;
  private readonly scratchReal: Float64Array;
  private readonly scratchImaginary: Float64Array;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`FFT length must be a positive integer, not ${size}`);
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
   * The power spectrum |X[k]|² of a real frame, for k = 0 … size/2 (numpy's rfft bins).
   * @param frame shape: (size)
   * @param power shape: (⌊size/2⌋ + 1), written
   */
  powerSpectrum(frame: ArrayLike<number>, power: Float64Array): void {
    this.transform(frame);
    for (let bin = 0; bin < power.length; bin++) {
      power[bin] = this.outputReal[bin]! * this.outputReal[bin]! + this.outputImaginary[bin]! * this.outputImaginary[bin]!;
    }
  }

  /** The complex spectrum of a real frame into {@link outputReal}/{@link outputImaginary}. */
  private transform(frame: ArrayLike<number>): void {
    if (frame.length !== this.size) throw new Error(`FFT of ${this.size} points given ${frame.length} samples`);
    this.work(0, frame, 0, 1, 0);
  }

  /**
   * Transforms the `remaining·radix` input samples at `inputOffset`, `inputStride` apart, into
   * the output at `outputOffset`.
   */
  private work(outputOffset: number, input: ArrayLike<number>, inputOffset: number, inputStride: number, stageIndex: number): void {
    const { radix, remaining } = this.stages[stageIndex]!;
    if (remaining === 1) {
      for (let index = 0; index < radix; index++) {
        this.outputReal[outputOffset + index] = input[inputOffset + index * inputStride]!;
        this.outputImaginary[outputOffset + index] = 0;
      }
    } else {
      for (let index = 0; index < radix; index++) {
        this.work(outputOffset + index * remaining, input, inputOffset + index * inputStride, inputStride * radix, stageIndex + 1);
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
