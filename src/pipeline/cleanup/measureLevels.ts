import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { readWavLayout } from './readWavLayout.js';

// Runs on a worker thread (see infrastructure/workers/workerTasks.ts): plain file reads and
// arithmetic only, no ffmpeg and no logger.

export interface MeasureLevelsInput {
  /** A 16-bit PCM WAV file, mono or multi-channel (clean-up writes 16 kHz, 1 or 2 channels). */
  path: string;
}

export interface LevelMeasurement {
  /** Length of the samples present, in seconds; 0 when the data chunk is empty. */
  durationSeconds: number;
  channels: number;
  /** Largest absolute sample over all channels, dB relative to full scale (-32768); -120 for digital silence. */
  peakDbfs: number;
  /** Root mean square over all samples of all channels, dBFS; -120 for digital silence. */
  rmsDbfs: number;
  /**
   * Share (0..1) of 30 ms frames in which at least one channel's RMS is above
   * {@link ACTIVITY_THRESHOLD_DBFS}. A level measure, not speech detection: steady noise that
   * loud counts as active.
   */
  activeFraction: number;
  /** The same share for each channel on its own; shape: (channels). */
  channelActiveFractions: number[];
}

/** Frame length for activity, in seconds: the usual speech-analysis frame. */
export const ACTIVITY_FRAME_SECONDS = 0.03;

/**
 * A frame is active when its RMS is above this, in dBFS: quiet speech on a normalised phone
 * recording sits around -35 to -25 dBFS, a quiet line's noise floor around -60 dBFS.
 */
export const ACTIVITY_THRESHOLD_DBFS = -45;

/** Reported instead of -Infinity for digital silence, so results stay finite JSON numbers. */
export const SILENCE_FLOOR_DBFS = -120;

const FULL_SCALE = 32768;
/** Bytes read per call, rounded down to whole sample frames: memory stays flat however long the file. */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * Peak, RMS and speech-level activity of a 16-bit PCM WAV file, read in fixed-size chunks
 * (a 2-hour mono 16 kHz file is 230 MB; this holds 1 MiB of it at a time).
 */
export async function measureLevels(input: MeasureLevelsInput): Promise<LevelMeasurement> {
  // Samples are viewed in place as an Int16Array, which uses the host's byte order; WAV is little-endian.
  if (endianness() !== 'LE') throw new Error('measureLevels needs a little-endian host');

  const handle = await open(input.path, 'r');
  try {
    const { channels, sampleRate, dataOffset, dataBytes } = await readWavLayout(handle);
    const frameBytes = channels * 2;
    const chunkBytes = Math.max(frameBytes, READ_CHUNK_BYTES - (READ_CHUNK_BYTES % frameBytes));
    const chunk = new ArrayBuffer(chunkBytes);
    const chunkBuffer = Buffer.from(chunk);

    const accumulator = new LevelAccumulator(channels, Math.round(sampleRate * ACTIVITY_FRAME_SECONDS));
    for (let offset = 0; offset < dataBytes; ) {
      const wanted = Math.min(chunkBytes, dataBytes - offset);
      const { bytesRead } = await handle.read(chunkBuffer, 0, wanted, dataOffset + offset);
      if (bytesRead === 0) break;
      // shape: (sampleFrames * channels), interleaved; a partial sample frame only at a short final read.
      accumulator.add(new Int16Array(chunk, 0, Math.floor(bytesRead / frameBytes) * channels));
      offset += bytesRead;
    }
    return accumulator.result(sampleRate);
  } finally {
    await handle.close();
  }
}

/** Running sums over interleaved samples, carrying the current activity frame across chunks. */
class LevelAccumulator {
  private readonly activeMeanSquare = FULL_SCALE ** 2 * 10 ** (ACTIVITY_THRESHOLD_DBFS / 10);
  private sampleFrames = 0;
  private peak = 0;
  private sumOfSquares = 0;
  /** shape: (channels); sums of squares of the activity frame being filled. */
  private readonly frameSums: Float64Array;
  private frameFill = 0;
  private frames = 0;
  private activeFrames = 0;
  /** shape: (channels) */
  private readonly channelActiveFrames: number[];

  constructor(private readonly channels: number, private readonly samplesPerFrame: number) {
    this.frameSums = new Float64Array(channels);
    this.channelActiveFrames = new Array<number>(channels).fill(0);
  }

  add(samples: Int16Array): void {
    const { channels, frameSums } = this;
    for (let index = 0; index < samples.length; index += channels) {
      for (let channel = 0; channel < channels; channel++) {
        const sample = samples[index + channel]!;
        const square = sample * sample;
        frameSums[channel]! += square;
        this.sumOfSquares += square;
        const magnitude = sample < 0 ? -sample : sample;
        if (magnitude > this.peak) this.peak = magnitude;
      }
      this.sampleFrames++;
      if (++this.frameFill === this.samplesPerFrame) this.closeFrame();
    }
  }

  result(sampleRate: number): LevelMeasurement {
    // The last, shorter frame counts like the others.
    if (this.frameFill > 0) this.closeFrame();
    const totalSamples = this.sampleFrames * this.channels;
    return {
      durationSeconds: this.sampleFrames / sampleRate,
      channels: this.channels,
      peakDbfs: toDbfs(this.peak),
      rmsDbfs: totalSamples === 0 ? SILENCE_FLOOR_DBFS : toDbfs(Math.sqrt(this.sumOfSquares / totalSamples)),
      activeFraction: this.frames === 0 ? 0 : this.activeFrames / this.frames,
      channelActiveFractions: this.channelActiveFrames.map((active) => (this.frames === 0 ? 0 : active / this.frames)),
    };
  }

  private closeFrame(): void {
    let anyActive = false;
    for (let channel = 0; channel < this.channels; channel++) {
      if (this.frameSums[channel]! / this.frameFill > this.activeMeanSquare) {
        this.channelActiveFrames[channel]!++;
        anyActive = true;
      }
      this.frameSums[channel] = 0;
    }
    if (anyActive) this.activeFrames++;
    this.frames++;
    this.frameFill = 0;
  }
}

function toDbfs(amplitude: number): number {
  return amplitude <= 0 ? SILENCE_FLOOR_DBFS : Math.max(SILENCE_FLOOR_DBFS, 20 * Math.log10(amplitude / FULL_SCALE));
}
