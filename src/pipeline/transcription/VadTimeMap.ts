/**
 * With `--vad`, whisper.cpp decodes only the speech it found, cut out of the recording and
 * joined with 0.1 s of silence between the pieces: a shorter, "processed" timeline. Version
 * 1.9.1 maps segment times back to the recording's timeline, but not token times: in the
 * JSON, a token's `offsets` are still processed times (whisper.cpp issues #3174, #3754; fixed
 * upstream in 1.9.2). This class rebuilds whisper's own mapping table from the
 * `vad_segment_info` lines it logs on stderr, so token times can be mapped the same way.
 */
export class VadTimeMap {
  /** Sorted by processed time, no two with the same one; times in ms. */
  private readonly points: ReadonlyArray<{ processedMs: number; originalMs: number }>;

  private constructor(segments: readonly VadSegment[]) {
    const points: Array<{ processedMs: number; originalMs: number }> = [];
    segments.forEach((segment, index) => {
      points.push({ processedMs: segment.processedStartMs, originalMs: segment.originalStartMs });
      points.push({ processedMs: segment.processedEndMs, originalMs: segment.originalEndMs });
      const next = segments[index + 1];
      // The 0.1 s of silence whisper inserts before the next piece stands for the whole gap.
      if (next) points.push({ processedMs: next.processedStartMs - joinSilenceMs, originalMs: segment.originalEndMs });
    });
    points.sort((a, b) => a.processedMs - b.processedMs);
    this.points = points.filter((point, index) => index === 0 || point.processedMs !== points[index - 1]!.processedMs);
  }

  /**
   * The map described by whisper-cli's stderr lines, or undefined when they hold none (no
   * `--vad`, or VAD found no speech: then whisper maps nothing either).
   */
  static fromWhisperLog(lines: Iterable<string>): VadTimeMap | undefined {
    const segments = vadSegmentsFromWhisperLog(lines);
    return segments.length === 0 ? undefined : new VadTimeMap(segments);
  }

  /** A processed time in ms → the recording's time in ms; linear between the table's points, clamped at its ends (as whisper.cpp does). */
  toOriginal(processedMs: number): number {
    const { points } = this;
    const first = points[0]!;
    const last = points[points.length - 1]!;
    if (processedMs <= first.processedMs) return first.originalMs;
    if (processedMs >= last.processedMs) return last.originalMs;
    const upperIndex = points.findIndex((point) => point.processedMs >= processedMs);
    const upper = points[upperIndex]!;
    if (upper.processedMs === processedMs) return upper.originalMs;
    const lower = points[upperIndex - 1]!;
    return lower.originalMs + ((processedMs - lower.processedMs) * (upper.originalMs - lower.originalMs)) / (upper.processedMs - lower.processedMs);
  }
}

/** The stretches of speech whisper.cpp's VAD kept, from the `vad_segment_info` lines of its stderr, in order. */
export function vadSegmentsFromWhisperLog(lines: Iterable<string>): VadSegment[] {
  const segments: VadSegment[] = [];
  for (const line of lines) {
    const match = vadSegmentLine.exec(line);
    if (!match) continue;
    const [originalStart, originalEnd, processedStart, processedEnd] = match.slice(1).map((seconds) => Math.round(Number(seconds) * 1000)) as [number, number, number, number];
    segments.push({ originalStartMs: originalStart, originalEndMs: originalEnd, processedStartMs: processedStart, processedEndMs: processedEnd });
  }
  return segments;
}

/** One stretch of speech VAD kept: where it was in the recording and where it went in the processed audio, ms. */
export interface VadSegment {
  originalStartMs: number;
  originalEndMs: number;
  processedStartMs: number;
  processedEndMs: number;
}

/** whisper.cpp 1.9: `whisper_vad: vad_segment_info: orig_start: 3.27, orig_end: 4.41, vad_start: 2.15, vad_end: 3.29` (seconds). */
const vadSegmentLine = /vad_segment_info: orig_start: ([\d.]+), orig_end: ([\d.]+), vad_start: ([\d.]+), vad_end: ([\d.]+)/;

/** Silence whisper.cpp puts between two pieces of speech, ms. */
const joinSilenceMs = 100;
