/** One STM segment: `<file> <channel> <speaker> <start> <end> <text…>`, times in seconds. */
export interface StmSegment {
  speaker: string;
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/**
 * The segments of an STM document (NIST Segment Time Mark), in file order; blank lines and `;;`
 * comments are skipped, and a segment with no text (an STM's way of marking silence or
 * excluded audio) too. A line that is not a segment throws, naming its number.
 */
export function parseStm(text: string): StmSegment[] {
  const segments: StmSegment[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.startsWith(';;')) return;
    const [, , speaker, start, end, ...words] = line.trim().split(/\s+/);
    const startSeconds = Number(start);
    const endSeconds = Number(end);
    if (speaker === undefined || !Number.isFinite(startSeconds) || !Number.isFinite(endSeconds) || endSeconds < startSeconds) {
      throw new Error(`STM line ${index + 1} is not "<file> <channel> <speaker> <start> <end> <text>"`);
    }
    if (words.length > 0) segments.push({ speaker, startSeconds, endSeconds, text: words.join(' ') });
  });
  return segments;
}
