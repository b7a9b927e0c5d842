import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelFormatError } from '../ModelFormatError.js';
import { readCt2Model } from './readCt2Model.js';
import { writeWhisperGgml, type WhisperHyperParameters } from './whisperGgml.js';
import { whisperGgmlFromCt2 } from './whisperGgmlFromCt2.js';

/**
 * Converts the CTranslate2 Whisper model in `modelDirectory` (`model.bin` and `vocabulary.json`
 * or `vocabulary.txt`, one token a line) into a whisper.cpp f16 model at `outputPath`, written
 * beside it under a temporary name and renamed into place. Returns the model's hyper-parameters.
 * Throws {@link ModelFormatError} for a model whose layout is not the expected one.
 */
export async function convertCt2WhisperToGgml(modelDirectory: string, outputPath: string): Promise<WhisperHyperParameters> {
  const modelFile = join(modelDirectory, 'model.bin');
  const model = readCt2Model(await readFile(modelFile), modelFile);
  const converted = whisperGgmlFromCt2(model, await readVocabulary(modelDirectory), modelFile);
  const partial = `${outputPath}.partial`;
  try {
    await writeWhisperGgml(partial, converted);
    await rename(partial, outputPath);
  } finally {
    await rm(partial, { force: true });
  }
  return converted.hyperParameters;
}

/** CTranslate2 writes `vocabulary.json` (a JSON list); older conversions `vocabulary.txt`. */
async function readVocabulary(modelDirectory: string): Promise<string[]> {
  const jsonFile = join(modelDirectory, 'vocabulary.json');
  const json = await readFile(jsonFile, 'utf8').catch(() => undefined);
  if (json !== undefined) {
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed) || !parsed.every((token) => typeof token === 'string')) throw new ModelFormatError(jsonFile, 'vocabulary', 'is not a JSON list of strings');
    return parsed as string[];
  }
  const text = await readFile(join(modelDirectory, 'vocabulary.txt'), 'utf8');
  // One token a line; the last line ends with a newline.
  return text.replace(/\n$/, '').split('\n');
}
