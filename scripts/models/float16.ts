/**
 * IEEE 754 half precision (float16) and bfloat16 to and from JavaScript numbers, for weights
 * stored in one precision and written in another. Node 20 has no Float16Array.
 */

const scratch = new DataView(new ArrayBuffer(4));

/** The number a float16 bit pattern holds. */
export function float16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** The number a bfloat16 bit pattern holds (the upper half of a float32). */
export function bfloat16Value(bits: number): number {
  scratch.setUint32(0, bits << 16);
  return scratch.getFloat32(0);
}

/** The float16 bit pattern nearest to `value` (ties to even, as numpy's `astype(float16)`). */
export function float16Bits(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  // 65520 and above round to infinity.
  if (magnitude >= 65520) return sign | 0x7c00;
  if (magnitude < 2 ** -14) {
    // Subnormal: a multiple of 2^-24, rounded to even.
    return sign | roundHalfToEven(magnitude * 2 ** 24);
  }
  let exponent = Math.floor(Math.log2(magnitude));
  // log2 can be off by one near powers of two.
  if (2 ** exponent > magnitude) exponent -= 1;
  else if (2 ** (exponent + 1) <= magnitude) exponent += 1;
  let fraction = roundHalfToEven((magnitude / 2 ** exponent - 1) * 1024);
  if (fraction === 1024) {
    fraction = 0;
    exponent += 1;
  }
  if (exponent > 15) return sign | 0x7c00;
  return sign | ((exponent + 15) << 10) | fraction;
}

function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const rest = value - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
