/**
 * Two-voice phone conversations synthesised with espeak-ng and joined with sox, so the script is
 * exact ground truth for turns (who speaks when) and words. Needs Debian's `espeak-ng` and `sox`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ConversationLine {
  speaker: 'A' | 'B';
  text: string;
}

export interface ConversationTurn extends ConversationLine {
  startSeconds: number;
  endSeconds: number;
}

export interface Conversation {
  path: string;
  durationSeconds: number;
  turns: ConversationTurn[];
}

export interface ConversationOptions {
  /** Where to write the 16 kHz 16-bit WAV. */
  outputPath: string;
  lines?: readonly ConversationLine[];
  /** Repeat the lines until the recording is at least this long, seconds. Defaults to one pass. */
  minimumSeconds?: number;
  /** Pause between turns, seconds. Defaults to `0.4`. */
  gapSeconds?: number;
  /** Each speaker on their own channel (A left, B right), as call recorders often store calls. Defaults to `false`. */
  stereo?: boolean;
}

/** Distinct voices: a low male and a high female variant. */
const voices = {
  A: ['-v', 'en-us', '-p', '35', '-s', '165'],
  B: ['-v', 'en+f3', '-p', '75', '-s', '175'],
} as const;

/** A business call between Diane (A, the user) and Sheila (B, the contact). */
export const businessCallLines: readonly ConversationLine[] = [
  { speaker: 'A', text: 'Hi, this is Diane from Northwind Legal. Am I speaking with Sheila?' },
  { speaker: 'B', text: 'Yes, Sheila speaking. Hello Diane, thanks for calling back.' },
  { speaker: 'A', text: 'Of course. I wanted to follow up on the contract renewal we discussed last week.' },
  { speaker: 'B', text: 'Right. We reviewed the draft, and overall it looks good, but we have two questions about the pricing.' },
  { speaker: 'A', text: 'Sure, go ahead. What would you like to clarify?' },
  { speaker: 'B', text: 'The annual fee went up to twelve thousand five hundred dollars. Can you explain the increase?' },
  { speaker: 'A', text: 'The new fee includes the additional support hours you asked for, about ten hours per month.' },
  { speaker: 'B', text: 'That makes sense. Could you send me a breakdown of those hours by email?' },
  { speaker: 'A', text: 'Absolutely. I will send the breakdown to you by Friday.' },
  { speaker: 'B', text: 'Great. The second question is about the start date. We would prefer the first of March.' },
  { speaker: 'A', text: 'I think that works. Let me confirm with our billing team and get back to you.' },
  { speaker: 'B', text: 'Perfect. Should we schedule a meeting to sign the final version?' },
  { speaker: 'A', text: 'Yes. How about next Tuesday at three in the afternoon?' },
  { speaker: 'B', text: 'Tuesday at three works for me. I will bring our finance director, Mark.' },
  { speaker: 'A', text: 'Wonderful. I will send a calendar invitation today.' },
  { speaker: 'B', text: 'Thank you, Diane. Is there anything else you need from our side?' },
  { speaker: 'A', text: 'Just the signed data processing form, if you could return it before the meeting.' },
  { speaker: 'B', text: 'I will have it signed and sent back by Monday.' },
  { speaker: 'A', text: 'Thank you so much, Sheila. Have a good afternoon.' },
  { speaker: 'B', text: 'You too. Goodbye.' },
];

/** Length of a WAV or other sox-readable file, seconds. */
export async function audioSeconds(path: string): Promise<number> {
  const { stdout } = await run('soxi', ['-D', path]);
  return Number(stdout.trim());
}

export async function makeConversation(options: ConversationOptions): Promise<Conversation> {
  const lines = options.lines ?? businessCallLines;
  const gap = options.gapSeconds ?? 0.4;
  const work = await mkdtemp(join(tmpdir(), 'callscope-conversation-'));
  // Every sox call has -D (no dither): sox dithers 16-bit output after effects with a random seed,
  // so without it two runs give files differing in their last bit, and evaluations that move.
  try {
    // Each distinct line is spoken once and reused on later passes (espeak is the slow part).
    const spoken = new Map<number, { path: string; seconds: number }>();
    for (const [index, line] of lines.entries()) {
      const path = join(work, `line-${index}.wav`);
      await run('espeak-ng', [...voices[line.speaker], '-w', path, line.text]);
      const resampled = join(work, `line-${index}-16k.wav`);
      await run('sox', ['-D', path, '-r', '16000', '-c', '1', '-b', '16', resampled]);
      spoken.set(index, { path: resampled, seconds: await audioSeconds(resampled) });
    }
    const silence = join(work, 'gap.wav');
    await run('sox', ['-D', '-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', String(gap)]);

    const turns: ConversationTurn[] = [];
    const left: string[] = [];
    const right: string[] = [];
    let cursor = 0;
    do {
      for (const [index, line] of lines.entries()) {
        const clip = spoken.get(index)!;
        turns.push({ ...line, startSeconds: round(cursor), endSeconds: round(cursor + clip.seconds) });
        // In stereo each channel holds one speaker; the other channel is silent for that stretch.
        const quiet = join(work, `quiet-${index}.wav`);
        if (options.stereo && !spoken.has(-1 - index)) {
          await run('sox', ['-D', '-n', '-r', '16000', '-c', '1', '-b', '16', quiet, 'trim', '0', String(clip.seconds)]);
          spoken.set(-1 - index, { path: quiet, seconds: clip.seconds });
        }
        left.push(line.speaker === 'A' || !options.stereo ? clip.path : quiet, silence);
        right.push(line.speaker === 'B' ? clip.path : quiet, silence);
        cursor += clip.seconds + gap;
      }
    } while (cursor < (options.minimumSeconds ?? 0));

    if (options.stereo) {
      const leftPath = join(work, 'left.wav');
      const rightPath = join(work, 'right.wav');
      await run('sox', ['-D', ...left, leftPath]);
      await run('sox', ['-D', ...right, rightPath]);
      await run('sox', ['-D', '-M', leftPath, rightPath, options.outputPath]);
    } else {
      await run('sox', ['-D', ...left, options.outputPath]);
    }
    return { path: options.outputPath, durationSeconds: await audioSeconds(options.outputPath), turns };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * `lines` spoken once into `folder/<id>-<digest>.wav` and reused afterwards: the digest, of the
 * lines, names a new file when the script changes, so a cached recording is always its script's.
 * Resolves to the file's path.
 */
export async function cachedConversation(folder: string, id: string, lines: readonly ConversationLine[]): Promise<string> {
  const digest = createHash('sha256').update(JSON.stringify(lines)).digest('hex').slice(0, 12);
  const path = join(folder, `${id}-${digest}.wav`);
  if (!existsSync(path)) {
    await mkdir(folder, { recursive: true });
    // Written aside and renamed, so an interrupted run leaves no half file under the final name.
    await makeConversation({ outputPath: `${path}.partial.wav`, lines });
    await rename(`${path}.partial.wav`, path);
  }
  return path;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
