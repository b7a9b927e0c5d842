import { FrameAggregator } from '../inference/FrameAggregator.js';
import type { WindowSegmentation } from '../inference/segmentWindows.js';
import { frameTiming, recordingFrameCount, segmentationGeometry, windowStartFrame } from '../models/SegmentationModel.js';
import { linkWindow } from './linkWindow.js';
import { TurnBuilder, type SpeakerRun } from './TurnBuilder.js';

export interface LinkSpeakersOptions {
  minLinkAgreement: number;
  minNewSpeakerSeconds: number;
  maxGapSeconds: number;
  minTurnSeconds: number;
}

/**
 * The embedding-free path: each window's local speakers are linked to call-level speakers by
 * their agreement with the aggregated activity of the windows before it (see `linkWindow`),
 * and the window is added to the aggregation straight away. One pass, streaming: frames
 * become turns as soon as no later window covers them. `totalSamples` (the recording's length)
 * is needed only once the windows are all read: a promise of it suits a recording still being
 * written while it is segmented.
 */
export async function linkSpeakersAcrossWindows(
  windows: AsyncIterable<Pick<WindowSegmentation, 'startSample' | 'activity'>>,
  totalSamples: number | PromiseLike<number>,
  options: LinkSpeakersOptions,
): Promise<SpeakerRun[]> {
  const turns = new TurnBuilder({ ...frameTiming, maxGapSeconds: options.maxGapSeconds, minTurnSeconds: options.minTurnSeconds });
  const aggregator = new FrameAggregator(segmentationGeometry.framesPerWindow, (frame, speakers) => turns.add(frame, speakers));
  const linkOptions = {
    minAgreement: options.minLinkAgreement,
    minNewSpeakerFrames: Math.round(options.minNewSpeakerSeconds / frameTiming.frameSeconds),
  };
  for await (const window of windows) {
    const startFrame = windowStartFrame(window.startSample);
    const speakerOfLocal = linkWindow(window.activity, aggregator.coveredActivity(startFrame), aggregator.speakerCount, linkOptions);
    aggregator.add({ startFrame, activity: window.activity }, speakerOfLocal);
  }
  aggregator.finish(recordingFrameCount(await totalSamples));
  return turns.finish();
}
