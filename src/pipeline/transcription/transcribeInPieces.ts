import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { readWavLayout, type WavLayout } from '../cleanup/readWavLayout.js';
import { pcm16WavHeader } from '../signal/pcm16Wav.js';
import type { StageContext } from '../StageContext.js';
import type { Transcription } from '../speechTypes.js';
import type { TranscriptionInput } from './transcribeAudio.js';

/**
 * Length of the pieces a long call is sent to the transcriber in, seconds at most (a piece may
 * end up to {@link cutSearchSeconds} later, in a pause). whisper.cpp holds the whole of what it
 * is given several times over (the request, the samples as floats, the stretches VAD keeps, a
 * padded copy and the mel spectrogram: about 2.1 GB for 2 hours with base), so a long call goes
 * in pieces and its memory stays that of a 10-minute call (about 0.45 GB with base). The service
 * decodes without the previous text as context, so a piece is read as it would be inside the whole.
 */
export const maxPieceSeconds = 600;
/** A piece ends in the quietest moment of the this-many seconds before its nominal end (the middle of the longest such stretch), so that no word is cut in two. */
const cutSearchSeconds = 30;
/** Length of the stretches compared when looking for the quietest moment, seconds. */
const quietFrameSeconds = 0.1;

/** One piece of the call: where it starts and ends in the whole, seconds. */
export interface AudioPiece {
  startSeconds: number;
  endSeconds: number;
}

/**
 * Transcribes `input` with `transcribe`: at once when it is at most {@link maxPieceSeconds} +
 * {@link cutSearchSeconds} long, else piece by piece (each written as a WAV of its own into `workDir`, removed after use),
 * with each piece's word times moved to the whole call's timeline. Progress runs over the pieces;
 * the language is the one most words were recognised in.
 */
export async function transcribeInPieces(
  input: TranscriptionInput,
  workDir: string,
  context: StageContext,
  transcribe: (piece: TranscriptionInput, context: StageContext) => Promise<Transcription>,
): Promise<Transcription> {
  if (input.durationSeconds <= maxPieceSeconds + cutSearchSeconds) return transcribe(input, context);
  const folder = await mkdtemp(join(workDir, 'pieces-'));
  try {
    const handle = await open(input.audioPath, 'r');
    let layout: WavLayout;
    let pieces: AudioPiece[];
    try {
      layout = await readWavLayout(handle);
      pieces = await cutIntoPieces(handle, layout, input.durationSeconds);
    } finally {
      await handle.close();
    }
    const transcriptions: Transcription[] = [];
    for (const [index, piece] of pieces.entries()) {
      context.signal.throwIfAborted();
      const audioPath = join(folder, `piece-${index}.wav`);
      await writePiece(input.audioPath, layout, piece, audioPath);
      const pieceContext: StageContext = { ...context, reportProgress: (fraction) => context.reportProgress((index + fraction) / pieces.length) };
      // Also a sign of life between pieces, for the stale-call sweep: whisper reports none while it reads a piece.
      pieceContext.reportProgress(0);
      const transcription = await transcribe({ ...input, audioPath, durationSeconds: piece.endSeconds - piece.startSeconds }, pieceContext);
      await rm(audioPath, { force: true });
      transcriptions.push({
        ...transcription,
        words: transcription.words.map((word) => ({ ...word, startSeconds: word.startSeconds + piece.startSeconds, endSeconds: word.endSeconds + piece.startSeconds })),
      });
    }
    return {
      language: mostHeardLanguage(transcriptions),
      words: transcriptions.flatMap((transcription) => transcription.words),
      provider: transcriptions[0]!.provider,
      model: transcriptions[0]!.model,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * As many equal pieces of at most {@link maxPieceSeconds} as cover `[0, durationSeconds]`, each
 * but the last ending in the quietest {@link quietFrameSeconds} of the {@link cutSearchSeconds}
 * before its nominal end (sum of absolute sample values over the channels; only those seconds
 * are read).
 */
async function cutIntoPieces(handle: FileHandle, layout: WavLayout, durationSeconds: number): Promise<AudioPiece[]> {
  const frameBytes = layout.channels * 2;
  const quietFrameSamples = Math.round(quietFrameSeconds * layout.sampleRate);
  const searchSamples = Math.round(cutSearchSeconds * layout.sampleRate);
  const count = Math.ceil(durationSeconds / maxPieceSeconds);
  const pieces: AudioPiece[] = [];
  let start = 0;
  for (let index = 1; index < count; index++) {
    const searchStart = (index * durationSeconds) / count - cutSearchSeconds;
    const bytes = Buffer.alloc(searchSamples * frameBytes);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, layout.dataOffset + Math.round(searchStart * layout.sampleRate) * frameBytes);
    // shape: (samples, channels) interleaved 16-bit → loudness per frame of quietFrameSamples.
    const loudness: number[] = [];
    for (let frame = 0; (frame + 1) * quietFrameSamples * frameBytes <= bytesRead; frame++) {
      let sum = 0;
      for (let offset = frame * quietFrameSamples * frameBytes; offset < (frame + 1) * quietFrameSamples * frameBytes; offset += 2) sum += Math.abs(bytes.readInt16LE(offset));
      loudness.push(sum);
    }
    const end = searchStart + (loudness.length === 0 ? cutSearchSeconds : middleOfQuietest(loudness) * quietFrameSeconds);
    pieces.push({ startSeconds: start, endSeconds: end });
    start = end;
  }
  pieces.push({ startSeconds: start, endSeconds: durationSeconds });
  return pieces;
}

/** Where the longest run of the quietest frames is, in frames from the first (its middle). */
function middleOfQuietest(loudness: readonly number[]): number {
  const least = Math.min(...loudness);
  let best = { start: 0, length: 0 };
  for (let frame = 0; frame < loudness.length; frame++) {
    if (loudness[frame] !== least) continue;
    let length = 1;
    while (loudness[frame + length] === least) length++;
    if (length > best.length) best = { start: frame, length };
    frame += length;
  }
  return best.start + best.length / 2;
}

/** Writes `piece` of the WAV at `sourcePath` to `targetPath` as a WAV of its own, streaming the samples. */
async function writePiece(sourcePath: string, layout: WavLayout, piece: AudioPiece, targetPath: string): Promise<void> {
  const frameBytes = layout.channels * 2;
  const firstByte = layout.dataOffset + Math.round(piece.startSeconds * layout.sampleRate) * frameBytes;
  const lastByte = Math.min(layout.dataOffset + layout.dataBytes, layout.dataOffset + Math.round(piece.endSeconds * layout.sampleRate) * frameBytes);
  const output = createWriteStream(targetPath);
  output.write(pcm16WavHeader(layout, lastByte - firstByte));
  await pipeline(createReadStream(sourcePath, { start: firstByte, end: lastByte - 1 }), output);
}

/** The language most recognised words were in (the first piece's when none has words). */
function mostHeardLanguage(transcriptions: readonly Transcription[]): string {
  const words = new Map<string, number>();
  for (const { language, words: heard } of transcriptions) words.set(language, (words.get(language) ?? 0) + heard.length);
  return [...words].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}
