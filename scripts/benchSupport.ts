/** What the bench scripts share: the models to run with, the call they process, and how much memory the run takes. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { resolveModelPath } from '../src/infrastructure/health/readinessChecks.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { childProcessIds, processStatus } from '../src/infrastructure/processes/processStatus.js';
import { makeConversation, type Conversation } from './audio/makeConversation.js';

/** The configured model files, or the shared development models where those are missing. */
export function modelsWithSharedFallback(): Record<string, string> {
  const sharedModels = resolve(packageRoot, '../shared/models');
  const fallbacks: Record<string, string> = {
    SEGMENTATION_MODEL: 'pyannote-segmentation-3.0.fp16.onnx',
    WHISPER_MODEL: 'whisper-test-stub-tiny.en.bin',
    VAD_MODEL: 'silero-vad-v6.2.0-ggml.bin',
  };
  const config = loadConfig({ ...process.env, DATA_DIR: tmpdir() });
  return Object.fromEntries(Object.entries(fallbacks).map(([slot, file]) => {
    const configured = resolveModelPath(config[slot as 'SEGMENTATION_MODEL' | 'WHISPER_MODEL' | 'VAD_MODEL']);
    return [slot, existsSync(configured) ? configured : join(sharedModels, file)];
  }));
}

/**
 * A two-voice call of `seconds` (espeak-ng + sox, see makeConversation) as a phone stores it:
 * trimmed to the length and encoded as AAC at 64 kbit/s in M4A, written to `m4aPath`. The WAV
 * it was made from is kept at `wavPath` when given, else removed.
 */
export async function synthesisePhoneCall(m4aPath: string, seconds: number, wavPath?: string): Promise<Conversation> {
  const work = await mkdtemp(join(tmpdir(), 'callscope-phone-call-'));
  try {
    const conversation = await makeConversation({ outputPath: wavPath ?? join(work, 'call.wav'), minimumSeconds: seconds });
    await promisify(execFile)(resolveFfmpegBinaries().ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', conversation.path, '-t', String(seconds), '-c:a', 'aac', '-b:a', '64k', m4aPath]);
    return conversation;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Resident memory of this process and all its descendants (ffmpeg, whisper.cpp), MB (Linux /proc). */
export async function residentMegabytes(): Promise<number> {
  const statuses = await Promise.all((await descendants(process.pid)).map(processStatus));
  return statuses.reduce((kilobytes, status) => kilobytes + (status?.residentKilobytes ?? 0), 0) / 1024;
}

async function descendants(pid: number): Promise<number[]> {
  const below = await Promise.all((await childProcessIds(pid)).map(descendants));
  return [pid, ...below.flat()];
}

/** Waits until `url` answers 2xx (a server the bench started), up to 30 s. */
export async function waitForAnswer(url: string, headers: Record<string, string> = {}): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer`);
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
