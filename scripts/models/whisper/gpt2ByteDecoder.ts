/**
 * GPT-2's byte-level BPE writes every byte as a printable character (OpenAI's
 * `bytes_to_unicode`): printable Latin-1 bytes stand for themselves, the other 68 bytes (controls,
 * space, soft hyphen…) for U+0100 onwards in byte order. Whisper's vocabulary files (CTranslate2's
 * `vocabulary.json`, Hugging Face's `vocab.json`) hold tokens in that form; whisper.cpp holds the
 * raw bytes.
 */
function byteOfCharacter(): Map<string, number> {
  const printable = (byte: number) => (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  const map = new Map<string, number>();
  let next = 0x100;
  for (let byte = 0; byte < 256; byte += 1) map.set(String.fromCodePoint(printable(byte) ? byte : next++), byte);
  return map;
}

const characterBytes = byteOfCharacter();

/** The raw bytes of a token in byte-level form, or undefined when it holds a character that stands for no byte. */
export function tokenBytes(token: string): Buffer | undefined {
  const bytes: number[] = [];
  for (const character of token) {
    const byte = characterBytes.get(character);
    if (byte === undefined) return undefined;
    bytes.push(byte);
  }
  return Buffer.from(bytes);
}
