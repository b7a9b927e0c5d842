import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WhisperJson } from '../../src/pipeline/transcription/parseWhisperJson.js';

/** One line of a scripted call: who says it (for the reader), when, seconds, and what. */
export interface ScriptLine {
  speaker: string;
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/**
 * The real recording ../shared/audio/pyannote-sample/sample.wav (Diane and Sheila, 30 s) with
 * the turn times of its sample.stm, but words that carry action items: the structure-only
 * whisper model hears no words, and a run that ends with no action items could not show that a
 * crash duplicates none. Diarization runs on the real audio; the words land in its turns.
 */
export const sampleCallScript: readonly ScriptLine[] = [
  { speaker: 'Diane', startSeconds: 6.68, endSeconds: 7.16, text: 'Hello?' },
  { speaker: 'Sheila', startSeconds: 7.634, endSeconds: 8.155, text: 'Hello?' },
  { speaker: 'Diane', startSeconds: 8.436, endSeconds: 9.798, text: 'Hi Sheila, this is Diane from the clinic.' },
  { speaker: 'Sheila', startSeconds: 9.838, endSeconds: 10.78, text: 'Oh, hello Diane.' },
  { speaker: 'Diane', startSeconds: 10.78, endSeconds: 14.184, text: 'I will send you the signed referral letter by Friday.' },
  { speaker: 'Sheila', startSeconds: 14.444, endSeconds: 17.769, text: 'Thank you. I will call the pharmacy tomorrow about the prescription.' },
  { speaker: 'Diane', startSeconds: 17.789, endSeconds: 21.475, text: 'Please email me a copy of your insurance card before Monday.' },
  { speaker: 'Sheila', startSeconds: 21.935, endSeconds: 28.425, text: 'Sure, I will email the insurance card to you tonight.' },
  { speaker: 'Diane', startSeconds: 28.445, endSeconds: 29.987, text: 'Great, talk soon.' },
];

/** whisper-cli's full JSON (`-ojf`) for `lines`: a segment per line, its words spread evenly over it. */
export function whisperJsonOf(lines: readonly ScriptLine[]): WhisperJson {
  const ms = (seconds: number) => Math.round(seconds * 1000);
  return {
    model: { multilingual: false },
    params: { language: 'en' },
    result: { language: 'en' },
    transcription: lines.map((line) => {
      const words = line.text.split(' ');
      const step = (line.endSeconds - line.startSeconds) / words.length;
      return {
        offsets: { from: ms(line.startSeconds), to: ms(line.endSeconds) },
        text: ` ${line.text}`,
        tokens: words.map((word, index) => ({
          text: ` ${word}`,
          offsets: { from: ms(line.startSeconds + index * step), to: ms(line.startSeconds + (index + 1) * step) },
          id: 1000 + index,
          p: 0.9,
        })),
      };
    }),
  };
}

/**
 * Writes a stand-in for whisper-cli (set as `WHISPER_CLI`) into `folder`: it takes whisper-cli's
 * arguments and writes `lines` where whisper-cli would write its JSON (`-of <base>` → `<base>.json`).
 */
export function writeScriptedWhisperCli(folder: string, lines: readonly ScriptLine[]): string {
  const jsonPath = join(folder, 'scripted-transcript.json');
  writeFileSync(jsonPath, JSON.stringify(whisperJsonOf(lines)));
  const scriptPath = join(folder, 'scripted-whisper-cli');
  writeFileSync(scriptPath, `#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -of ] && out="$2"; shift; done\ncp '${jsonPath}' "$out.json"\n`);
  chmodSync(scriptPath, 0o755);
  return scriptPath;
}
