import type { WhisperPrompt } from './whisperPrompt.js';

/**
 * The form fields of a request to whisper.cpp's `whisper-server` `/inference` (the audio
 * aside), for our own persistent server and a site's: verbose_json with token times, a
 * deterministic first pass, the language (always: the server's default is `en`), and the
 * prompt when there is one, carried before every 30 s window (`carry_initial_prompt`).
 * `max_context`, given for our own server (started with `-mc 0`), makes room for the prompt and
 * nothing else (see {@link WhisperPrompt}); a site's server keeps its own context setting.
 */
export function whisperServerFields(input: { language: string; prompt?: Pick<WhisperPrompt, 'text'> & Partial<WhisperPrompt> | undefined }): [string, string][] {
  const { prompt } = input;
  return [
    ['response_format', 'verbose_json'],
    ['temperature', '0'],
    ['token_timestamps', 'true'],
    ['language', input.language],
    ...(prompt ? [['prompt', prompt.text], ['carry_initial_prompt', 'true']] as [string, string][] : []),
    ...(prompt?.maxContext !== undefined ? [['max_context', String(prompt.maxContext)]] as [string, string][] : []),
  ];
}
