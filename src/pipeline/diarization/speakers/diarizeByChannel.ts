import { readWavBlocks, readWavInfo } from '../inference/readWavBlocks.js';
import { TurnBuilder, type SpeakerRun } from './TurnBuilder.js';

/**
 * Stereo call recordings often carry one party per channel. Then each channel's voice activity
 * is one speaker's turns (left = speaker 0, right = speaker 1), which beats any model at telling
 * the two apart. This decides whether a stereo file is such a recording and, if so, finds the
 * turns, by energy: two streaming passes over 20 ms frames.
 *
 * Voice activity per channel (hysteresis): from the channel's own level distribution (digital
 * silence left out), the noise floor (10th percentile of frame levels) and speech level (95th
 * percentile); a frame
 * turns a channel on at floor + half the range (at most speech − 12 dB) and keeps it on down to
 * 6 dB below that. A frame more than 15 dB below the other channel counts as crosstalk, not
 * speech. A channel whose speech level is less than 10 dB over its floor has no speech.
 *
 * The channels carry different parties when, among the frames where either channel is active,
 * at least 60 % are one-sided (one channel 10 dB or more above the other) and each channel is
 * the loud side of at least 10 % of those. A dual-mono file (the same mix twice) or a room
 * recorded with two microphones has level differences of a few dB and is diarized as mono.
 */
export const channelRule = {
  frameSeconds: 0.02,
  floorPercentile: 0.1,
  speechPercentile: 0.95,
  minSpeechRangeDb: 10,
  maxOnBelowSpeechDb: 12,
  hysteresisDb: 6,
  crosstalkDb: 15,
  oneSidedDb: 10,
  minOneSidedShare: 0.6,
  minShareOfEachSide: 0.1,
} as const;

export interface ChannelDiarization {
  /** Whether the two channels carry different parties (the rule above). */
  separated: boolean;
  /** Share of active frames that are one-sided, and each side's share of those, for logs and tests. */
  oneSidedShare: number;
  sideShares: [number, number];
  /** Turns of speaker 0 (left) and 1 (right); empty when not separated. */
  runs: SpeakerRun[];
}

export interface DiarizeByChannelOptions {
  maxGapSeconds: number;
  minTurnSeconds: number;
}

const HISTOGRAM_FLOOR_DB = -120;
/** Frames below this are digital silence (16-bit quantisation noise is about -100 dBFS), dBFS. */
const DIGITAL_SILENCE_DB = -90;

export async function diarizeByChannel(stereoPath: string, options: DiarizeByChannelOptions): Promise<ChannelDiarization> {
  const { sampleRate, channelCount } = await readWavInfo(stereoPath);
  if (channelCount < 2) throw new Error('channel diarization needs a stereo file');
  const levels = channelLevels(stereoPath, Math.round(channelRule.frameSeconds * sampleRate));
  // Pass 1: each channel's level distribution, in 1 dB bins from -120 dBFS. Digital silence
  // (a recorder muting the side that is not talking) is left out, so the floor is the line's noise.
  const histograms = [new Float64Array(-HISTOGRAM_FLOOR_DB + 1), new Float64Array(-HISTOGRAM_FLOOR_DB + 1)];
  for await (const frame of levels()) {
    frame.forEach((db, channel) => {
      if (db > DIGITAL_SILENCE_DB) histograms[channel]![Math.min(-HISTOGRAM_FLOOR_DB, Math.round(db - HISTOGRAM_FLOOR_DB))]! += 1;
    });
  }
  const thresholds = histograms.map(activityThresholds);

  // Pass 2: hysteresis per channel, turns, and the separation statistics.
  const turns = new TurnBuilder({ frameSeconds: channelRule.frameSeconds, maxGapSeconds: options.maxGapSeconds, minTurnSeconds: options.minTurnSeconds });
  const on = [false, false];
  let activeFrames = 0;
  const loudSide = [0, 0];
  let frameIndex = 0;
  for await (const frame of levels()) {
    const speaking: number[] = [];
    for (let channel = 0; channel < 2; channel++) {
      const level = frame[channel]!;
      const limits = thresholds[channel];
      on[channel] = limits !== undefined && level >= (on[channel] ? limits.off : limits.on) && level >= frame[1 - channel]! - channelRule.crosstalkDb;
      if (on[channel]) speaking.push(channel);
    }
    if (speaking.length > 0) {
      activeFrames += 1;
      const difference = frame[0]! - frame[1]!;
      if (difference >= channelRule.oneSidedDb) loudSide[0]! += 1;
      else if (difference <= -channelRule.oneSidedDb) loudSide[1]! += 1;
      turns.add(frameIndex, speaking);
    }
    frameIndex += 1;
  }

  const oneSided = loudSide[0]! + loudSide[1]!;
  const oneSidedShare = activeFrames > 0 ? oneSided / activeFrames : 0;
  const sideShares: [number, number] = oneSided > 0 ? [loudSide[0]! / oneSided, loudSide[1]! / oneSided] : [0, 0];
  const separated = oneSidedShare >= channelRule.minOneSidedShare && Math.min(...sideShares) >= channelRule.minShareOfEachSide;
  return { separated, oneSidedShare, sideShares, runs: separated ? turns.finish() : [] };
}

/** The on/off levels of a channel's hysteresis, dBFS; undefined when the channel holds no speech. */
function activityThresholds(histogram: Float64Array): { on: number; off: number } | undefined {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  const percentile = (share: number) => {
    let seen = 0;
    for (let bin = 0; bin < histogram.length; bin++) {
      seen += histogram[bin]!;
      if (seen >= share * total) return bin + HISTOGRAM_FLOOR_DB;
    }
    return 0;
  };
  const floor = percentile(channelRule.floorPercentile);
  const speech = percentile(channelRule.speechPercentile);
  if (total === 0 || speech - floor < channelRule.minSpeechRangeDb) return undefined;
  const onLevel = Math.min(floor + (speech - floor) / 2, speech - channelRule.maxOnBelowSpeechDb);
  return { on: onLevel, off: onLevel - channelRule.hysteresisDb };
}

/** A generator factory of per-frame levels (dBFS) of the first two channels, streaming. */
function channelLevels(path: string, frameSamples: number): () => AsyncGenerator<[number, number]> {
  return async function* frames() {
    let sums = [0, 0];
    let filled = 0;
    for await (const block of readWavBlocks(path)) {
      const [left, right] = block.channels;
      if (!left || !right) throw new Error('channel diarization needs a stereo file');
      for (let index = 0; index < left.length; index++) {
        sums[0]! += left[index]! * left[index]!;
        sums[1]! += right[index]! * right[index]!;
        if (++filled === frameSamples) {
          yield [toDb(sums[0]! / filled), toDb(sums[1]! / filled)];
          sums = [0, 0];
          filled = 0;
        }
      }
    }
  };
}

function toDb(meanSquare: number): number {
  return meanSquare > 0 ? Math.max(HISTOGRAM_FLOOR_DB, 10 * Math.log10(meanSquare)) : HISTOGRAM_FLOOR_DB;
}
