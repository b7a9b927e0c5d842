import type { TranscriptRedaction } from '../../domain/transcripts/transcriptRedactionSchema.js';
import type { Transcription } from '../speechTypes.js';
import type { RedactionKind } from './redactionKinds.js';
import { redactWords } from './redactWords.js';
import { toneOverSpans } from './toneOverSpans.js';

/** What a run redacts (`REDACT`) and whether it rewrites the stored audio. */
export interface RedactionSettings {
  /** Empty: redaction is off. */
  kinds: readonly RedactionKind[];
  /**
   * Replace the spans in the audio files by a tone: on in the service (its stored upload and
   * cleaned audio), off in `callscope process`, which must not change the file it was given.
   */
  toneAudio: boolean;
}

/** An audio file of the call to tone over, with its stored format (`wav`, `mp3`, `m4a`, `aac`, `ogg`). */
export interface AudioFile {
  path: string;
  format: string;
}

export interface RedactedTranscription {
  /** The words with placeholders: what every later stage, the store and the analyser see. */
  transcription: Transcription;
  /** For the transcript; undefined when redaction is off. */
  redaction?: TranscriptRedaction;
}

/**
 * Redaction right after transcription: the words' spans become placeholders, and (when
 * `toneAudio`) each audio file gets a tone over them (ffmpeg's output goes to `tempDir` first),
 * before anything is stored or analysed.
 * The audio is rewritten only where something was found.
 */
export async function redactTranscription(
  transcription: Transcription,
  settings: RedactionSettings,
  audio: { files: readonly AudioFile[]; tempDir: string },
  signal?: AbortSignal,
): Promise<RedactedTranscription> {
  if (settings.kinds.length === 0) return { transcription };
  const result = redactWords(transcription.words, settings.kinds);
  if (settings.toneAudio) for (const file of audio.files) await toneOverSpans(file.path, file.format, result.spans, { tempDir: audio.tempDir, ...(signal ? { signal } : {}) });
  return {
    transcription: { ...transcription, words: result.words },
    redaction: { kinds: [...settings.kinds], counts: result.counts },
  };
}

/**
 * The files of a call a redaction tones over: the stored upload (when its format is known) and
 * the cleaned audio, which a call waiting for its transcription callback keeps on disk.
 */
export function callAudioFiles(original: { audioPath: string; audioFormat?: string }, cleaned: { monoPath: string; stereoPath?: string }): AudioFile[] {
  return [
    ...(original.audioFormat ? [{ path: original.audioPath, format: original.audioFormat }] : []),
    { path: cleaned.monoPath, format: 'wav' },
    ...(cleaned.stereoPath ? [{ path: cleaned.stereoPath, format: 'wav' }] : []),
  ];
}

/** Redaction off (the default of a caller that names none). */
export const noRedaction: RedactionSettings = { kinds: [], toneAudio: false };
