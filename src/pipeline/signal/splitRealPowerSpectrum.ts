/**
 * The power spectrum of a real frame of N = 2M samples, from the M-point complex FFT Z of the
 * frame packed as z[n] = x[2n] + i·x[2n+1]: the spectra of the even and odd samples are
 * E[k] = (Z[k] + conj(Z[M−k])) / 2 and O[k] = (Z[k] − conj(Z[M−k])) / 2i (Z[M] = Z[0]), and
 * X[k] = E[k] + e^(−2πi·k/N)·O[k]. Half the work of a complex FFT of the whole frame.
 * @param real shape: (M), Re Z
 * @param imaginary shape: (M), Im Z
 * @param twiddleReal shape: (M), cos(−2πk/N)
 * @param twiddleImaginary shape: (M), sin(−2πk/N)
 * @param power shape: (M + 1), |X[k]|² for k = 0 … M, written
 */
export function splitRealPowerSpectrum(
  real: Float64Array,
  imaginary: Float64Array,
  twiddleReal: Float64Array,
  twiddleImaginary: Float64Array,
  power: Float64Array,
): void {
  const half = real.length;
  for (let bin = 0; bin <= half; bin++) {
    const zReal = real[bin % half]!;
    const zImaginary = imaginary[bin % half]!;
    const mirrorReal = real[(half - bin) % half]!;
    const mirrorImaginary = -imaginary[(half - bin) % half]!;
    const evenReal = (zReal + mirrorReal) / 2;
    const evenImaginary = (zImaginary + mirrorImaginary) / 2;
    const oddReal = (zImaginary - mirrorImaginary) / 2;
    const oddImaginary = -(zReal - mirrorReal) / 2;
    // e^(−πi) = −1 at k = M.
    const cos = bin < half ? twiddleReal[bin]! : -1;
    const sin = bin < half ? twiddleImaginary[bin]! : 0;
    const binReal = evenReal + cos * oddReal - sin * oddImaginary;
    const binImaginary = evenImaginary + cos * oddImaginary + sin * oddReal;
    power[bin] = binReal * binReal + binImaginary * binImaginary;
  }
}
