import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

const Offsets = Type.Object({ from: Type.Number(), to: Type.Number() });

/**
 * The part of whisper-cli's full JSON output (`-ojf`, whisper.cpp 1.9 `output_json`) this stage
 * reads. Times are `offsets` in ms (`timestamps` holds the same as "00:00:01,230" strings). A
 * token has `offsets` only when whisper computed times for it. `t_dtw` is where DTW's alignment
 * path leaves the token for the next (its end, see wordsFromWhisperJson.ts), in centiseconds
 * (10 ms) from the start of the audio whisper decoded; -1 without `-dtw`, and for a window DTW
 * skipped (see scripts/buildWhisper.mjs).
 *
 * ```json
 * { "model": { "type": "tiny", "multilingual": false, … },
 *   "params": { "model": "…", "language": "auto", "translate": false },
 *   "result": { "language": "en" },
 *   "transcription": [
 *     { "timestamps": {…}, "offsets": { "from": 0, "to": 3020 }, "text": " And so my",
 *       "tokens": [ { "text": "[_BEG_]", "offsets": {…}, "id": 50363, "p": 0.98, "t_dtw": -1 },
 *                   { "text": " And", "timestamps": {…}, "offsets": { "from": 320, "to": 510 }, "id": 843, "p": 0.71, "t_dtw": -1 }, … ] } ] }
 * ```
 */
export const WhisperJsonSchema = Type.Object({
  model: Type.Optional(Type.Object({ multilingual: Type.Optional(Type.Boolean()) })),
  params: Type.Optional(Type.Object({ language: Type.Optional(Type.String()) })),
  result: Type.Optional(Type.Object({ language: Type.Optional(Type.String()) })),
  transcription: Type.Array(Type.Object({
    offsets: Offsets,
    text: Type.Optional(Type.String()),
    tokens: Type.Optional(Type.Array(Type.Object({
      text: Type.String(),
      offsets: Type.Optional(Offsets),
      id: Type.Integer(),
      p: Type.Number(),
      t_dtw: Type.Optional(Type.Number()),
    }))),
  })),
});

export type WhisperJson = Static<typeof WhisperJsonSchema>;
export type WhisperJsonSegment = WhisperJson['transcription'][number];
export type WhisperJsonToken = NonNullable<WhisperJsonSegment['tokens']>[number];

/**
 * Reads whisper-cli's full JSON output. whisper.cpp escapes only `"` and `\` in strings, so a
 * token holding a control character (a newline token) would make the file invalid JSON: those
 * are escaped first. Throws a plain Error (an internal fault, not the recording's) naming
 * neither the file nor its text when the output is not what whisper.cpp writes.
 */
export function parseWhisperJson(text: string): WhisperJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(escapeControlCharactersInStrings(text));
  } catch {
    throw new Error('whisper-cli wrote output that is not JSON');
  }
  if (!Value.Check(WhisperJsonSchema, parsed)) {
    const first = [...Value.Errors(WhisperJsonSchema, parsed)][0];
    throw new Error(`whisper-cli wrote JSON of an unexpected shape (${first ? `${first.instancePath || '(root)'}: ${first.message}` : 'unknown'})`);
  }
  return parsed;
}

/** Raw control characters (U+0000..U+001F) inside JSON strings → `\u00XX`; whitespace between values is kept. */
function escapeControlCharactersInStrings(text: string): string {
  // A string runs from a quote to the next quote that no backslash escapes.
  return text.replace(/"(?:[^"\\]|\\.)*"/gs, (string) =>
    string.replace(/[\u0000-\u001f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * The language whisper transcribed in: detected (`result.language`), else the one it was told
 * (`params.language`, unless `auto`). whisper's codes are ISO 639-1 except a few (`haw`, `yue`).
 */
export function whisperLanguage(json: WhisperJson): string | undefined {
  const detected = json.result?.language;
  if (detected) return detected;
  const requested = json.params?.language;
  return requested && requested !== 'auto' ? requested : undefined;
}
