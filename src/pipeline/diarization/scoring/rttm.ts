import type { SpeakerTurn } from '../../speechTypes.js';

/** RTTM (NIST Rich Transcription Time Marked) `SPEAKER` lines ↔ speaker turns. */

/**
 * The `SPEAKER` lines of an RTTM document as turns (other line types, blank lines and
 * `;;` comments are skipped). Times are rounded to the millisecond, as RTTM writes them.
 * @param fileId only lines of this file id, when given
 */
export function parseRttm(text: string, fileId?: string): SpeakerTurn[] {
  const turns: SpeakerTurn[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'SPEAKER') return;
    const [, file, , start, duration, , , speaker] = fields;
    const startSeconds = Number(start);
    const durationSeconds = Number(duration);
    if (speaker === undefined || !Number.isFinite(startSeconds) || !Number.isFinite(durationSeconds) || durationSeconds < 0) {
      throw new Error(`RTTM line ${index + 1} is not "SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker> <NA> <NA>"`);
    }
    if (fileId !== undefined && file !== fileId) return;
    turns.push({ speaker, startSeconds: roundMs(startSeconds), endSeconds: roundMs(startSeconds + durationSeconds) });
  });
  return turns.sort((a, b) => a.startSeconds - b.startSeconds);
}

/** One `SPEAKER <file> 1 <start> <duration> <NA> <NA> <speaker> <NA> <NA>` line per turn, times in seconds with 3 decimals. */
export function formatRttm(turns: readonly SpeakerTurn[], fileId: string): string {
  const file = fileId.replace(/\s+/g, '_') || 'audio';
  return turns
    .map((turn) => `SPEAKER ${file} 1 ${turn.startSeconds.toFixed(3)} ${(turn.endSeconds - turn.startSeconds).toFixed(3)} <NA> <NA> ${turn.speaker} <NA> <NA>`)
    .join('\n');
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
