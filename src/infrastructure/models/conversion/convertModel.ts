import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import JSZip from 'jszip';
import { writeFileAtomically } from '../durableFiles.js';
import { markInstalledWhole } from '../missingModels.js';
import type { ModelConversion, ModelEntry } from '../manifestSchema.js';
import { ge2eCheckpointToOnnx } from './ge2eCheckpointToOnnx.js';

/** The converters by the manifest's `convertedFrom.conversion`: the archive member's bytes → the installed file's. */
const conversions: Readonly<Record<ModelConversion, (member: Uint8Array) => Uint8Array>> = {
  'ge2e-checkpoint': ge2eCheckpointToOnnx,
};

/** A manifest entry installed by conversion. */
export type ConvertedModelEntry = ModelEntry & { convertedFrom: NonNullable<ModelEntry['convertedFrom']> };

export function isConvertedEntry(entry: ModelEntry): entry is ConvertedModelEntry {
  return entry.convertedFrom !== undefined;
}

/** The archive or its conversion is not what the manifest describes; the message is for the operator. */
export class ModelConversionFailure extends Error {
  override readonly name = 'ModelConversionFailure';
}

/**
 * Installs a converted entry from its archive (already checked against `convertedFrom`'s size
 * and digest): the member read out of the zip (jszip checks its CRC-32), converted, its SHA-256
 * checked against `expectedSha256` (the entry's, or the one recorded on first install; none when
 * neither exists), then written beside `target`, fsynced and renamed into place. Memory: the
 * archive, the member and the model at once (about 40 MB for the GE2E encoder). The conversion
 * runs on the calling thread, about 0.4 s of CPU once per install (the GE2E encoder, measured):
 * the command line's fetch and import, and in the service only an admin's import of a folder
 * holding the wheel (its downloads fetch recommended entries, none of them converted), where
 * that pause once is cheaper than a worker thread kept for it.
 */
export async function installConvertedModel(
  archivePath: string,
  entry: ConvertedModelEntry,
  target: string,
  expectedSha256: string | undefined,
): Promise<{ sha256: string; sizeBytes: number }> {
  const { archiveMember, conversion } = entry.convertedFrom;
  let model: Uint8Array;
  try {
    const zip = await JSZip.loadAsync(await readFile(archivePath), { checkCRC32: true });
    const member = zip.file(archiveMember);
    if (!member) throw new Error(`it holds no ${archiveMember}`);
    model = conversions[conversion](await member.async('uint8array'));
  } catch (error) {
    throw new ModelConversionFailure(`${entry.name} could not be made from ${basename(archivePath)}: ${(error as Error).message}`);
  }
  const sha256 = createHash('sha256').update(model).digest('hex');
  if (expectedSha256 !== undefined && sha256 !== expectedSha256) {
    throw new ModelConversionFailure(`the conversion of ${entry.name} gave SHA-256 ${sha256}, not the manifest's ${expectedSha256}: nothing was installed`);
  }

  await writeFileAtomically(target, model);
  markInstalledWhole(target);
  return { sha256, sizeBytes: model.length };
}
