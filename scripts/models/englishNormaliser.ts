import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { runPythonReference } from './runPythonReference.js';

const NormalisedTextsSchema = Type.Array(Type.String());

/**
 * Each text's words after Whisper's English normaliser (`EnglishTextNormalizer` of
 * whisper-normalizer, run in the Python reference environment of `npm run models:eval`), in
 * the order given: what word error rates against a reference are counted on. One Python run for
 * all the texts.
 */
export async function normaliseEnglish(texts: readonly string[]): Promise<string[][]> {
  if (texts.length === 0) return [];
  const normalised = Value.Parse(NormalisedTextsSchema, JSON.parse(await runPythonReference('normaliseEnglish.py', texts)));
  if (normalised.length !== texts.length) throw new Error(`normaliseEnglish.py gave ${normalised.length} texts for ${texts.length}`);
  return normalised.map((text) => text.split(/\s+/).filter((word) => word !== ''));
}
