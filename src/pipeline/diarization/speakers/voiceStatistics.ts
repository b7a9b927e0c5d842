import { computeFbank } from '../models/computeFbank.js';
import type { RecordingCepstra } from './RecordingCepstra.js';

/**
 * Voice statistics without a trained model: each speaker's cepstra (MFCC-like: the DCT of
 * 40 log-mel energies, c1…c19, every 10 ms) modelled as one full-covariance Gaussian, and two
 * speakers compared by the Bayesian information criterion (Chen & Gopalakrishnan, 1998): is the
 * speech of both better explained by one Gaussian or by two, once the second model's extra
 * parameters are paid for? It needs no training data and no threshold on a distance scale,
 * only the penalty weight, and it grows more certain with more speech: the basis on which the
 * embedding-free path decides how many speakers a call has.
 */

/** Log-mel bands the cepstra are taken from (fewer than the embedding models' 80: a smoother envelope). */
const MEL_BANDS = 40;
/** Cepstral coefficients kept: c1…c19 (c0, the loudness, says more about the line than the voice). */
export const CEPSTRAL_DIMENSIONS = 19;

/** `CEPSTRAL_DIMENSIONS × MEL_BANDS` DCT-II basis, orthonormal, rows c1…c19. */
const dctBasis = (() => {
  const basis = new Float64Array(CEPSTRAL_DIMENSIONS * MEL_BANDS);
  for (let coefficient = 0; coefficient < CEPSTRAL_DIMENSIONS; coefficient++) {
    for (let band = 0; band < MEL_BANDS; band++) {
      basis[coefficient * MEL_BANDS + band] = Math.sqrt(2 / MEL_BANDS) * Math.cos((Math.PI * (coefficient + 1) * (band + 0.5)) / MEL_BANDS);
    }
  }
  return basis;
})();

/**
 * Cepstra of a stretch of 16 kHz mono audio.
 * @param samples shape: (samples), -1..1
 * @returns shape: (frames, CEPSTRAL_DIMENSIONS), one frame per 10 ms
 */
export function cepstra(samples: Float32Array): { frames: number; features: Float32Array } {
  const { frames, features: logMel } = computeFbank(samples.map((sample) => sample * 32768), { melBins: MEL_BANDS });
  const features = new Float32Array(frames * CEPSTRAL_DIMENSIONS);
  for (let frame = 0; frame < frames; frame++) {
    for (let coefficient = 0; coefficient < CEPSTRAL_DIMENSIONS; coefficient++) {
      let value = 0;
      for (let band = 0; band < MEL_BANDS; band++) value += dctBasis[coefficient * MEL_BANDS + band]! * logMel[frame * MEL_BANDS + band]!;
      features[frame * CEPSTRAL_DIMENSIONS + coefficient] = value;
    }
  }
  return { frames, features };
}

/** Sufficient statistics of one Gaussian over frames of `CEPSTRAL_DIMENSIONS`: count, sums, sums of products. */
export class VoiceStatistics {
  frames = 0;
  readonly sum = new Float64Array(CEPSTRAL_DIMENSIONS);
  /** shape: (d, d), upper and lower triangle both kept */
  readonly products = new Float64Array(CEPSTRAL_DIMENSIONS * CEPSTRAL_DIMENSIONS);

  /** @param features shape: (frames, CEPSTRAL_DIMENSIONS) */
  add(features: Float32Array, frames: number): void {
    const d = CEPSTRAL_DIMENSIONS;
    for (let frame = 0; frame < frames; frame++) {
      const offset = frame * d;
      for (let row = 0; row < d; row++) {
        const value = features[offset + row]!;
        this.sum[row]! += value;
        for (let column = row; column < d; column++) this.products[row * d + column]! += value * features[offset + column]!;
      }
    }
    for (let row = 0; row < d; row++) for (let column = 0; column < row; column++) this.products[row * d + column] = this.products[column * d + row]!;
    this.frames += frames;
  }

  static combined(a: VoiceStatistics, b: VoiceStatistics): VoiceStatistics {
    const both = new VoiceStatistics();
    both.frames = a.frames + b.frames;
    for (let index = 0; index < both.sum.length; index++) both.sum[index] = a.sum[index]! + b.sum[index]!;
    for (let index = 0; index < both.products.length; index++) both.products[index] = a.products[index]! + b.products[index]!;
    return both;
  }

  /** Seconds of speech behind the statistics (10 ms frames). */
  get seconds(): number {
    return this.frames / 100;
  }

  /**
   * log |Σ| of the maximum-likelihood covariance, with `floor` added to its diagonal (a few
   * seconds of speech can leave a direction almost unvoiced: the floor keeps that from
   * reading as infinitely certain).
   */
  logDeterminant(floor: number): number {
    return choleskyLogDeterminant(this.covariance(floor).covariance, CEPSTRAL_DIMENSIONS);
  }

  /** The maximum-likelihood mean and covariance, `floor` added to the covariance's diagonal. */
  covariance(floor: number): { mean: Float64Array; covariance: Float64Array } {
    const d = CEPSTRAL_DIMENSIONS;
    const n = this.frames;
    const mean = this.sum.map((value) => value / n);
    const covariance = new Float64Array(d * d);
    for (let row = 0; row < d; row++) {
      for (let column = 0; column < d; column++) {
        covariance[row * d + column] = this.products[row * d + column]! / n - mean[row]! * mean[column]! + (row === column ? floor : 0);
      }
    }
    return { mean, covariance };
  }
}

/** A voice's Gaussian ready to score frames: its mean, and its floored covariance's Cholesky factor and log-determinant. */
export class VoiceModel {
  /** Reused by every {@link logLikelihood} call: hundreds of thousands of frames are scored per hour of audio. */
  private readonly scratch = new Float64Array(CEPSTRAL_DIMENSIONS);

  private constructor(private readonly mean: Float64Array, private readonly lower: Float64Array, private readonly constant: number) {}

  /** Undefined when the statistics do not give a positive-definite covariance. */
  static of(statistics: VoiceStatistics, floor: number): VoiceModel | undefined {
    const d = CEPSTRAL_DIMENSIONS;
    const { mean, covariance } = statistics.covariance(floor);
    const lower = cholesky(covariance, d);
    if (!lower) return undefined;
    let logDeterminant = 0;
    for (let row = 0; row < d; row++) logDeterminant += 2 * Math.log(lower[row * d + row]!);
    return new VoiceModel(mean, lower, -0.5 * (d * Math.log(2 * Math.PI) + logDeterminant));
  }

  /** Mean log-likelihood per frame of the frames behind `frames`, from their sums alone, nats: how well this voice explains them. */
  meanLogLikelihood(frames: VoiceStatistics): number {
    const d = CEPSTRAL_DIMENSIONS;
    const { mean, lower } = this;
    // Σ (x−μ)(x−μ)ᵀ over the frames, from their sums: P − μ sᵀ − s μᵀ + m μ μᵀ.
    const m = frames.frames;
    const scatter = new Float64Array(d * d);
    for (let row = 0; row < d; row++) {
      for (let column = 0; column < d; column++) {
        scatter[row * d + column] = frames.products[row * d + column]! - mean[row]! * frames.sum[column]! - frames.sum[row]! * mean[column]! + m * mean[row]! * mean[column]!;
      }
    }
    // tr(Σ⁻¹ S) = Σ over the columns c of S of cᵀ Σ⁻¹ c, by forward substitution with Σ = L Lᵀ.
    let trace = 0;
    const solved = new Float64Array(d);
    for (let column = 0; column < d; column++) {
      for (let row = 0; row < d; row++) {
        let value = scatter[row * d + column]!;
        for (let k = 0; k < row; k++) value -= lower[row * d + k]! * solved[k]!;
        solved[row] = value / lower[row * d + row]!;
      }
      for (let row = 0; row < d; row++) trace += solved[row]! * solved[row]!;
    }
    return this.constant - (0.5 * trace) / m;
  }

  /** Log-likelihood of one frame, nats. @param features shape: (frames, CEPSTRAL_DIMENSIONS) */
  logLikelihood(features: Float32Array, frame: number): number {
    const d = CEPSTRAL_DIMENSIONS;
    const solved = this.scratch;
    let squared = 0;
    for (let row = 0; row < d; row++) {
      let value = features[frame * d + row]! - this.mean[row]!;
      for (let k = 0; k < row; k++) value -= this.lower[row * d + k]! * solved[k]!;
      solved[row] = value / this.lower[row * d + row]!;
      squared += solved[row]! * solved[row]!;
    }
    return this.constant - 0.5 * squared;
  }
}

/**
 * ΔBIC of keeping `a` and `b` apart rather than one speaker: positive when two Gaussians explain
 * their frames better than one even after the penalty for the second model's parameters
 * (`penaltyWeight` × ½ · (d + d(d+1)/2) · log n). Consecutive 10 ms frames are far from
 * independent, so the weight is larger than the textbook 1.
 */
export function separationEvidence(a: VoiceStatistics, b: VoiceStatistics, penaltyWeight: number, floor: number): number {
  const both = VoiceStatistics.combined(a, b);
  const d = CEPSTRAL_DIMENSIONS;
  const gain = 0.5 * (both.frames * both.logDeterminant(floor) - a.frames * a.logDeterminant(floor) - b.frames * b.logDeterminant(floor));
  const penalty = penaltyWeight * 0.5 * (d + (d * (d + 1)) / 2) * Math.log(both.frames);
  return gain - penalty;
}

/** log |A| of a symmetric positive-definite matrix (−∞ when it is not). @param matrix shape: (d, d) */
function choleskyLogDeterminant(matrix: Float64Array, d: number): number {
  const lower = cholesky(matrix, d);
  if (!lower) return Number.NEGATIVE_INFINITY;
  let logDeterminant = 0;
  for (let row = 0; row < d; row++) logDeterminant += 2 * Math.log(lower[row * d + row]!);
  return logDeterminant;
}

/** L with A = L Lᵀ, of a symmetric positive-definite matrix; undefined when it is not. @param matrix shape: (d, d) */
function cholesky(matrix: Float64Array, d: number): Float64Array | undefined {
  const lower = new Float64Array(d * d);
  for (let row = 0; row < d; row++) {
    for (let column = 0; column <= row; column++) {
      let value = matrix[row * d + column]!;
      for (let k = 0; k < column; k++) value -= lower[row * d + k]! * lower[column * d + k]!;
      if (row === column) {
        if (value <= 0) return undefined;
        lower[row * d + row] = Math.sqrt(value);
      } else {
        lower[row * d + column] = value / lower[column * d + column]!;
      }
    }
  }
  return lower;
}

/** A stretch where one speaker talks alone, seconds. */
export interface SoloStretch {
  /** Index of the run (turn) it lies in. */
  run: number;
  startSeconds: number;
  endSeconds: number;
}

/**
 * The stretches where exactly one speaker talks, each trimmed by `marginSeconds` at both ends
 * (turn edges are uncertain to a frame or two, and a neighbour's voice there would blur both
 * speakers), keeping those still at least `minSeconds` long.
 * @param runs any order; a speaker's runs do not overlap one another (their own overlap is not solo speech)
 */
export function soloStretches(runs: readonly { speaker: number; startSeconds: number; endSeconds: number }[], marginSeconds: number, minSeconds: number): SoloStretch[] {
  const edges = runs.flatMap((run, index) => [{ at: run.startSeconds, run: index, delta: 1 }, { at: run.endSeconds, run: index, delta: -1 }])
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  const active = new Set<number>();
  const stretches: SoloStretch[] = [];
  let soloSince: { run: number; at: number } | undefined;
  for (const edge of edges) {
    if (soloSince) {
      const start = soloSince.at + marginSeconds;
      const end = edge.at - marginSeconds;
      if (end - start >= minSeconds) stretches.push({ run: soloSince.run, startSeconds: start, endSeconds: end });
      soloSince = undefined;
    }
    if (edge.delta > 0) active.add(edge.run);
    else active.delete(edge.run);
    if (active.size === 1) soloSince = { run: active.values().next().value!, at: edge.at };
  }
  return stretches;
}

/**
 * Each run's voice statistics over its solo stretches.
 * @param stretches any order
 */
export function collectVoiceStatistics(recording: RecordingCepstra, stretches: readonly SoloStretch[]): Map<number, VoiceStatistics> {
  const statistics = new Map<number, VoiceStatistics>();
  for (const stretch of stretches) {
    const { features, frames } = recording.within(stretch.startSeconds, stretch.endSeconds);
    if (frames === 0) continue;
    let ofRun = statistics.get(stretch.run);
    if (!ofRun) statistics.set(stretch.run, ofRun = new VoiceStatistics());
    ofRun.add(features, frames);
  }
  return statistics;
}
