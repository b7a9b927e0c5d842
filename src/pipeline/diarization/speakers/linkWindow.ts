import { isActive, LOCAL_SPEAKERS } from '../inference/decodePowerset.js';
import type { CoveredActivity } from '../inference/FrameAggregator.js';
import { maximizeAssignment } from '../maximizeAssignment.js';

export interface LinkWindowOptions {
  /**
   * A local speaker continues a call-level speaker when their activity over the frames the
   * window shares with earlier windows agrees at least this much (fuzzy Jaccard index, 0..1).
   */
  minAgreement: number;
  /** An unlinked local speaker active for fewer frames than this in its window starts no new speaker (it stays unmapped). */
  minNewSpeakerFrames: number;
}

/**
 * Links a window's local speakers to call-level speakers without embeddings: by how well each
 * local speaker's activity agrees with each call-level speaker's (aggregated) activity over the
 * frames this window shares with earlier ones.
 *
 * Agreement of local speaker k (activity a, 0/1) and call-level speaker s (mean activity m,
 * 0..1) is the fuzzy Jaccard index Σ min(a, m) / Σ max(a, m) over the shared frames. Local and
 * call-level speakers are paired one-to-one by maximum total agreement (Hungarian); a pair
 * below `minAgreement` is not linked. An unlinked local speaker becomes a new call-level
 * speaker (numbered from `nextSpeaker`), unless it is barely active.
 * @param activity shape: (framesPerWindow); bit k set when local speaker k is active
 * @returns shape: (LOCAL_SPEAKERS); call-level speaker of each local speaker, -1 when unmapped
 */
export function linkWindow(activity: Uint8Array, covered: CoveredActivity, nextSpeaker: number, options: LinkWindowOptions): number[] {
  const { frames, speakers, values } = covered;
  const activeFrames = new Array<number>(LOCAL_SPEAKERS).fill(0);
  for (const mask of activity) for (let local = 0; local < LOCAL_SPEAKERS; local++) if (isActive(mask, local)) activeFrames[local]! += 1;

  // shape: (LOCAL_SPEAKERS, speakers)
  const agreement = Array.from({ length: LOCAL_SPEAKERS }, () => new Array<number>(speakers).fill(0));
  if (speakers > 0) {
    const intersection = new Float64Array(LOCAL_SPEAKERS * speakers);
    const union = new Float64Array(LOCAL_SPEAKERS * speakers);
    for (let frame = 0; frame < frames; frame++) {
      const mask = activity[frame]!;
      for (let local = 0; local < LOCAL_SPEAKERS; local++) {
        const active = isActive(mask, local) ? 1 : 0;
        for (let speaker = 0; speaker < speakers; speaker++) {
          const mean = values[frame * speakers + speaker]!;
          intersection[local * speakers + speaker]! += Math.min(active, mean);
          union[local * speakers + speaker]! += Math.max(active, mean);
        }
      }
    }
    for (let local = 0; local < LOCAL_SPEAKERS; local++) {
      for (let speaker = 0; speaker < speakers; speaker++) {
        const index = local * speakers + speaker;
        agreement[local]![speaker] = union[index]! > 0 ? intersection[index]! / union[index]! : 0;
      }
    }
  }

  const paired = maximizeAssignment(agreement);
  let next = nextSpeaker;
  return paired.map((speaker, local) => {
    if (activeFrames[local] === 0) return -1;
    if (speaker >= 0 && agreement[local]![speaker]! >= options.minAgreement) return speaker;
    return activeFrames[local]! >= options.minNewSpeakerFrames ? next++ : -1;
  });
}
