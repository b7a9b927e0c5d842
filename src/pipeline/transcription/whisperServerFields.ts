import { fieldsOf, whisperDecodingFields } from './whisperCliArguments.js';
import { whisperVadSettings } from './whisperVadSettings.js';
import type { WhisperPrompt } from './whisperPrompt.js';

/**
 * Longest segment text, characters, before whisper-server splits a segment: more than a 30 s
 * window's text can hold, so it never splits one. whisper-cli leaves segments whole, but
 * whisper-server 1.9 turns the default 0 into 60 and splits between any two tokens, cutting
 * words in two ("cart" | "ridge") whose halves would then be read as two words.
 */
const unsplitSegmentCharacters = 100_000;

/**
 * The form fields of a request to whisper.cpp's `whisper-server` `/inference` (the audio
 * aside), for our own persistent server and a site's: verbose_json with token times, whisper-cli's
 * decoding settings, every one of them (see {@link whisperDecodingFields}), whole segments, the
 * language (always: the server's default is `en`), and the prompt when there is one, carried
 * before every 30 s window (`carry_initial_prompt`) in a text context that holds it and nothing
 * else (`max_context`, see {@link WhisperPrompt}). Every setting travels in the request, so a
 * site's server decodes the call as our whisper-cli does, whatever flags it was started with.
 */
export function whisperServerFields(input: { language: string; prompt?: WhisperPrompt | undefined; beamSize: number }): [string, string][] {
  const { prompt } = input;
  return [
    ['response_format', 'verbose_json'],
    ['token_timestamps', 'true'],
    ['max_len', String(unsplitSegmentCharacters)],
    ['language', input.language],
    ...whisperDecodingFields({ maxContext: prompt?.maxContext ?? 0, beamSize: input.beamSize }),
    ...fieldsOf(whisperVadSettings),
    ...(prompt ? [['prompt', prompt.text], ['carry_initial_prompt', 'true']] as [string, string][] : []),
  ];
}
