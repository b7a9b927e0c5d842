import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/configSchema.js';
import { drawDownloadProgress } from './downloadProgressBar.js';
import { defaultFetchSlots } from './fetchModels.js';
import type { ModelSlot } from './manifestSchema.js';
import { describeMissingModels, missingModels, slotsNeededByCalls, type MissingModel, type NeededModelsConfig } from './missingModels.js';
import type { ModelDownloads, ModelDownloadSnapshot } from './ModelDownloads.js';

export interface PrepareModelsOptions {
  config: Pick<Config, 'MODELS_AUTO_FETCH' | 'SEGMENTATION_MODEL' | 'WHISPER_MODEL' | 'EMBEDDING_MODEL' | 'VAD_MODEL' | 'LLM_MODEL'> & NeededModelsConfig;
  downloads: ModelDownloads;
  log: FastifyBaseLogger;
  /** The terminal to draw on and print to, when stdout is one; otherwise everything goes to the log. */
  terminal?: NodeJS.WritableStream;
}

/**
 * First start: when a model that calls need is missing, fetch the recommended models in the
 * background (`MODELS_AUTO_FETCH`, on by default), with a progress bar on a terminal and
 * progress on the admin page; offline, or with the download off, say in one short paragraph
 * what is missing, where it goes and how to import it. The service answers meanwhile, and
 * calls wait in the queue until the models are in place. Resolves when the download has ended
 * (never rejects: a failure here must not stop the service).
 */
export async function prepareModelsAtStart({ config, downloads, log, terminal }: PrepareModelsOptions): Promise<void> {
  const missing = missingModels(config);
  if (missing.length === 0) return;
  const say = (paragraph: string) => (terminal ? terminal.write(`\n${wrap(paragraph)}\n\n`) : log.warn({ missing: missing.map((model) => model.configKey) }, paragraph));
  if (!config.MODELS_AUTO_FETCH) {
    say(`${whatIsNotInstalled(missing)}, and downloading at start is off (MODELS_AUTO_FETCH=false). ${howToInstall()} ${callsWait}`);
    return;
  }
  const slots = slotsToFetch(config);
  const stopDrawing = terminal ? drawDownloadProgress(downloads, terminal) : undefined;
  if (!terminal) log.info({ missing: missing.map((model) => model.configKey), slots }, 'a model calls need is missing: downloading the recommended models');
  let snapshot: ModelDownloadSnapshot;
  try {
    snapshot = await downloads.start('start', slots);
  } catch (error) {
    log.error({ err: error }, 'the model download at start failed');
    return;
  } finally {
    stopDrawing?.();
  }
  if (snapshot.state === 'offline') {
    say(`${whatIsNotInstalled(missing)}, and ${snapshot.unreachable} cannot be reached from this machine to download them. ${howToInstall()} ${callsWait}`);
    return;
  }
  for (const item of snapshot.items) {
    const entry = { slot: item.slot, model: item.entry, outcome: item.state, ...(item.target ? { target: item.target } : {}) };
    if (item.state === 'failed') log.warn(entry, `model download failed: ${item.message}`);
    else log.info(entry, item.state === 'downloaded' ? 'model downloaded and verified' : 'model already installed');
    if (item.warning) log.warn({ slot: item.slot, model: item.entry }, item.warning);
  }
  const stillMissing = missingModels(config);
  if (stillMissing.length > 0) say(`${whatIsNotInstalled(stillMissing)}: the download failed (see the lines above; \`npx callscope models fetch\` resumes it). ${howToInstall()} ${callsWait}`);
  else if (terminal) terminal.write(`Models installed: ${snapshot.items.filter((item) => item.state === 'downloaded').map((item) => `${item.entry} → ${item.target}`).join(', ')}. Calls start now.\n`);
}

/** The recommended set of `callscope models fetch`, plus whatever else calls need (the language model with `ANALYSER=llm` or `hybrid`). */
export function slotsToFetch(config: NeededModelsConfig): ModelSlot[] {
  return [...new Set([...defaultFetchSlots, ...slotsNeededByCalls(config)])];
}

const callsWait = 'Calls uploaded meanwhile wait in the queue and start by themselves once the models are in place; no restart is needed.';

/** "Callscope cannot process calls yet: the speech recognition model (models/whisper.bin) is not installed". */
function whatIsNotInstalled(missing: readonly MissingModel[]): string {
  return `Callscope cannot process calls yet: ${describeMissingModels(missing)} ${missing.length === 1 ? 'is' : 'are'} not installed`;
}

function howToInstall(): string {
  return 'On a machine that can download them, fetch the files listed in models/manifest.json (or run `npx callscope models fetch` in a Callscope folder there), bring them over, and run `npx callscope models import DIR` here (or import them on the admin page, Models); copying each file to the path shown works too.';
}

/** Wraps a paragraph at `width` columns for a terminal. */
function wrap(paragraph: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
