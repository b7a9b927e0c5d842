import type { WhisperDecodingSetting } from './whisperCliArguments.js';

/**
 * How whisper.cpp's Silero VAD turns its speech probabilities (one per 32 ms) into the stretches
 * whisper decodes, for whisper-cli (`--vad-*` flags) and whisper-server (`/inference` fields
 * `vad_*`, which override its start flags). Both get every setting, so that a new whisper.cpp
 * version, or a site's server started with other flags, cannot change what whisper hears.
 *
 * Threshold and shortest stretch are lower than whisper.cpp's defaults (0.5 and 250 ms), for the
 * short answering word a call opens with ("Hello?"). VAD hears the cleaned audio, whose
 * loudness normalisation lifts the line noise before the first word by 35-40 dB and is still
 * turning its gain down during that word: on the telephone sample Diane's "Hello?" (6.68-7.16 s)
 * made a stretch of 224 ms (from reaching 0.5 to falling under 0.35), under the 250 ms minimum,
 * and was dropped; on the raw recording it lasts 384 ms. Now it lasts 320 ms and is decoded.
 * Measured by `npm run eval:vad` on recordings other than that sample (four AMI meeting openings,
 * four espeak-ng calls over line noise; BENCHMARKS.md "eval:vad"): short turns (≤ 1 s) kept
 * 27/27 instead of 25/27, speech kept 93.5 % instead of 92.1 %, non-speech let through 0.8 %
 * instead of 0.2 % (0.4 s of 52 s); neither change alone keeps all 27. On 10 s of line noise,
 * clicks and beeps after the clean-up VAD still finds no speech, so whisper gets nothing to
 * hallucinate on.
 * The longest stretch (`--vad-max-speech-duration-s`) stays unbounded, whisper.cpp's default.
 */
export const whisperVadSettings: readonly WhisperDecodingSetting[] = [
  // A stretch starts where the probability reaches 0.35 and ends where it stays below 0.2
  // (whisper.cpp ends it 0.15 under the threshold).
  { flag: '--vad-threshold', field: 'vad_threshold', value: '0.35' },
  // Shorter stretches are dropped: 100 ms holds a syllable ("Yes.", "No.").
  { flag: '--vad-min-speech-duration-ms', field: 'vad_min_speech_duration_ms', value: '100' },
  // Silence that ends a stretch; and the padding added either side of it.
  { flag: '--vad-min-silence-duration-ms', field: 'vad_min_silence_duration_ms', value: '100' },
  { flag: '--vad-speech-pad-ms', field: 'vad_speech_pad_ms', value: '30' },
  // Seconds of the following audio kept after each stretch but the last.
  { flag: '--vad-samples-overlap', field: 'vad_samples_overlap', value: '0.1' },
];
