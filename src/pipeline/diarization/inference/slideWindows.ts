/** One fixed-length window of a mono signal. */
export interface AudioWindow {
  /** 0, 1, 2, … in order. */
  index: number;
  /** First sample of the window in the signal. */
  startSample: number;
  /** shape: (windowSamples); zero-padded past the end of the signal. Valid until the next window is taken. */
  samples: Float32Array;
  /** Samples of the signal in the window: windowSamples but for the padded last one. */
  validSamples: number;
}

export interface SlideWindowsOptions {
  windowSamples: number;
  stepSamples: number;
}

/**
 * Cuts a stream of mono blocks into windows starting every `stepSamples`, as pyannote's
 * sliding-window inference does: every whole window, then one zero-padded window for the
 * samples after the last whole one (a signal shorter than a window gives one padded window).
 * Holds one window plus one block, whatever the signal's length.
 */
export async function* slideWindows(blocks: AsyncIterable<Float32Array>, options: SlideWindowsOptions): AsyncGenerator<AudioWindow> {
  const { windowSamples, stepSamples } = options;
  if (!(stepSamples > 0 && stepSamples <= windowSamples)) throw new Error('window step must be in (0, window]');
  let buffer = new Float32Array(windowSamples * 2);
  // Signal index of buffer[0], and samples held.
  let bufferStart = 0;
  let filled = 0;
  let index = 0;
  let total = 0;

  for await (const block of blocks) {
    total += block.length;
    let consumed = 0;
    while (consumed < block.length) {
      // Drop what no later window needs before appending.
      const keepFrom = Math.min(index * stepSamples - bufferStart, filled);
      if (keepFrom > 0) {
        buffer.copyWithin(0, keepFrom, filled);
        filled -= keepFrom;
        bufferStart += keepFrom;
      }
      if (filled === buffer.length) {
        const grown = new Float32Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const take = Math.min(block.length - consumed, buffer.length - filled);
      buffer.set(block.subarray(consumed, consumed + take), filled);
      filled += take;
      consumed += take;
      for (let start = index * stepSamples; start + windowSamples <= bufferStart + filled; start = index * stepSamples) {
        yield { index, startSample: start, samples: buffer.subarray(start - bufferStart, start - bufferStart + windowSamples), validSamples: windowSamples };
        index += 1;
      }
    }
  }

  const start = index * stepSamples;
  const lastWholeEnd = index === 0 ? 0 : (index - 1) * stepSamples + windowSamples;
  if (total === 0 || (index > 0 && lastWholeEnd >= total)) return;
  const padded = new Float32Array(windowSamples);
  padded.set(buffer.subarray(start - bufferStart, filled));
  yield { index, startSample: start, samples: padded, validSamples: total - start };
}
