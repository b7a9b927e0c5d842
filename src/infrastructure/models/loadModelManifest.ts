import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { packageRoot } from '../packageRoot.js';
import { ModelManifestSchema, type ModelManifest } from './manifestSchema.js';
import { defaultModelFileOf, modelSlots } from './modelSlots.js';

/** `models/manifest.json` in the install folder. */
export const defaultManifestPath = join(packageRoot, 'models', 'manifest.json');

/** The manifest file is unreadable, not JSON, or breaks the schema or one of its rules. */
export class ManifestError extends Error {
  constructor(path: string, readonly problems: string[]) {
    super(`Invalid model manifest ${path}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ManifestError';
  }
}

/** Reads and validates a model manifest (by default the installed one). */
export async function loadModelManifest(path: string = defaultManifestPath): Promise<ModelManifest> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ManifestError(path, [(error as Error).message]);
  }
  const problems = [...Value.Errors(ModelManifestSchema, parsed)].map((error) => `${error.instancePath || '(root)'}: ${error.message}`);
  if (problems.length === 0) problems.push(...manifestRuleProblems(parsed as ModelManifest));
  if (problems.length > 0) throw new ManifestError(path, problems);
  return parsed as ModelManifest;
}

let installedManifest: Promise<ModelManifest> | undefined;

/** The installed manifest, read once per process (it changes only with an upgrade, which restarts). */
export function installedModelManifest(): Promise<ModelManifest> {
  installedManifest ??= loadModelManifest().catch((error: unknown) => {
    installedManifest = undefined;
    throw error;
  });
  return installedManifest;
}

/** Rules across entries, which the schema cannot say. */
function manifestRuleProblems(manifest: ModelManifest): string[] {
  const problems: string[] = [];
  const seenNames = new Set<string>();
  const seenDigests = new Map<string, string>();
  for (const entry of manifest.models) {
    if (seenNames.has(entry.name)) problems.push(`${entry.name}: name used twice`);
    seenNames.add(entry.name);
    if (entry.sha256 !== null) {
      const other = seenDigests.get(entry.sha256);
      // One digest, one entry: "the entry whose sha256 matches" must be unambiguous.
      if (other) problems.push(`${entry.name}: same sha256 as ${other}`);
      seenDigests.set(entry.sha256, entry.name);
    }
    const expectedFile = defaultModelFileOf(entry.slot);
    if (entry.fileName !== expectedFile) problems.push(`${entry.name}: fileName must be the ${entry.slot} slot's default path ${expectedFile}`);
  }
  for (const { slot } of modelSlots) {
    const recommended = manifest.models.filter((entry) => entry.slot === slot && entry.recommended);
    if (recommended.length !== 1) problems.push(`slot ${slot}: ${recommended.length} recommended entries, expected exactly 1`);
    for (const entry of recommended) {
      if (entry.development) problems.push(`${entry.name}: a development file cannot be recommended`);
      if (entry.url === null) problems.push(`${entry.name}: a recommended entry needs a url`);
    }
  }
  return problems;
}
