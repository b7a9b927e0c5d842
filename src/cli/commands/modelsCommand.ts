import { stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { loadModelManifest, ManifestError } from '../../infrastructure/models/loadModelManifest.js';
import { ModelSlotSchema, type ModelManifest, type ModelSlot } from '../../infrastructure/models/manifestSchema.js';
import {
  defaultFetchSlots, fetchModels, importModels, inspectModels, type ModelSlotStatus,
} from '../../infrastructure/models/modelInventory.js';
import { modelSlots } from '../../infrastructure/models/modelSlots.js';
import { packageRoot } from '../../infrastructure/packageRoot.js';
import { UsageError, type CliCommand } from '../CliCommand.js';

const slotNames = ModelSlotSchema.enum as readonly ModelSlot[];

/**
 * `callscope models status|fetch|import`: the model files of the slots, checked against
 * `models/manifest.json`. Exit codes: status 0 when every required slot is `ok` and no file
 * failed its check, else 1; fetch and import 0 when nothing failed or was refused, else 1;
 * 64 usage, 78 configuration.
 */
export const modelsCommand: CliCommand = {
  name: 'models',
  usage: 'models status [--json] | fetch [--slot S]... [--model NAME]... [--all] | import <folder>',
  summary: `Check the model files against the manifest, download the recommended ones (default slots: ${defaultFetchSlots.join(', ')}), or install them from a folder`,
  async run(args) {
    const [action, ...rest] = args;
    const actions: Record<string, (args: string[]) => Promise<number>> = { status: showStatus, fetch: fetchRecommended, import: importFromFolder };
    const run = action === undefined ? undefined : actions[action];
    if (!run) throw new UsageError(action === undefined ? 'Give an action: status, fetch or import.' : `Unknown action "${action}": use status, fetch or import.`);
    try {
      return await run(rest);
    } catch (error) {
      // A broken manifest is a broken install: said plainly, exit 78 like a configuration error.
      if (!(error instanceof ManifestError)) throw error;
      console.error(error.message);
      return 78;
    }
  },
};

async function showStatus(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
  const config = loadConfig();
  const slots = await inspectModels(config, await loadModelManifest());
  if (values.json) console.log(JSON.stringify(slots, null, 2));
  else printStatusTable(slots);
  const healthy = slots.every((slot) => (!slot.required || slot.check === 'ok') && slot.check !== 'checksum_mismatch');
  if (!values.json) {
    console.log(healthy ? '\nEvery required model is installed and verified.' : '\nSome models need attention (see above); callscope models fetch or callscope models import <folder> installs them.');
    if (slots.some((slot) => slot.check === 'ok' && slot.manifestEntry?.development)) console.log('Development files are in use: they prove the pipeline runs, not that it gives useful results.');
  }
  return healthy ? 0 : 1;
}

async function fetchRecommended(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args, strict: true,
    options: { slot: { type: 'string', multiple: true }, model: { type: 'string', multiple: true }, all: { type: 'boolean' } },
  });
  const config = loadConfig();
  const manifest = await loadModelManifest();
  const slots = values.slot ?? [];
  const models = values.model ?? [];
  if (values.all && (slots.length > 0 || models.length > 0)) throw new UsageError('--all fetches every slot; leave out --slot and --model.');
  for (const slot of slots) if (!slotNames.includes(slot as ModelSlot)) throw new UsageError(`--slot takes one of ${slotNames.join(', ')}, not "${slot}".`);
  for (const name of models) if (!manifest.models.some((entry) => entry.name === name)) throw new UsageError(`--model: the manifest has no model "${name}" (${entryNames(manifest)}).`);

  const showProgress = process.stderr.isTTY;
  const results = await fetchModels(config, manifest, {
    ...(values.all ? { slots: slotNames } : slots.length > 0 ? { slots: slots as ModelSlot[] } : {}),
    ...(models.length > 0 ? { models } : {}),
    ...(config.MODELS_MIRROR_URL ? { mirrorUrl: config.MODELS_MIRROR_URL } : {}),
    ...(showProgress
      ? { onProgress: (entry, received, total) => process.stderr.write(`\r${entry.name} ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}   `) }
      : {}),
  });
  if (showProgress) process.stderr.write('\r\x1b[K');
  for (const result of results) {
    console.log(`${result.slot}: ${result.outcome} — ${result.message}${result.outcome === 'downloaded' ? ` → ${displayPath(result.target)}` : ''}`);
    if (result.warning) console.error(`\nWARNING: ${result.warning}\n`);
  }
  return results.some((result) => result.outcome === 'failed') ? 1 : 0;
}

async function importFromFolder(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {}, strict: true });
  const [folder, ...extra] = positionals;
  if (!folder || extra.length > 0) throw new UsageError('Give exactly one folder to import from.');
  if (!(await stat(folder).then((stats) => stats.isDirectory(), () => false))) throw new UsageError(`${folder} is not a folder.`);
  const config = loadConfig();
  const results = await importModels(folder, config, await loadModelManifest());
  if (results.length === 0) {
    console.error(`No files in ${folder}.`);
    return 1;
  }
  for (const result of results) {
    const where = result.target && result.outcome === 'imported' ? ` → ${displayPath(result.target)}` : '';
    console.log(`${result.outcome.padEnd(9)} ${relative(folder, result.file) || result.fileName}${where}: ${result.message}`);
    if (result.warning) console.error(`\nWARNING: ${result.warning}\n`);
  }
  const installed = results.some((result) => result.outcome === 'imported' || result.outcome === 'unchanged');
  if (!installed) console.error(`No manifest model found in ${folder}.`);
  return !installed || results.some((result) => result.outcome === 'failed' || result.outcome === 'refused') ? 1 : 0;
}

function printStatusTable(slots: readonly ModelSlotStatus[]): void {
  const rows = slots.map((slot) => [
    `${slot.slot}${slot.required ? ' *' : ''}`,
    displayPath(slot.configuredPath),
    slot.sizeBytes === null ? '-' : formatBytes(slot.sizeBytes),
    slot.sha256?.slice(0, 12) ?? '-',
    slot.check.replaceAll('_', ' '),
    slot.message,
  ]);
  const header = ['SLOT', 'FILE', 'SIZE', 'SHA256', 'CHECK', 'MESSAGE'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
  console.log(`\n* required (${modelSlots.filter((slot) => slot.required).map((slot) => slot.configKey).join(', ')})`);
}

/** Relative to the install folder when inside it, else as is. */
function displayPath(path: string): string {
  const inside = relative(packageRoot, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

function entryNames(manifest: ModelManifest): string {
  return manifest.models.map((entry) => entry.name).join(', ');
}
